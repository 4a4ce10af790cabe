//! A trained policy and its file.
//!
//! **The file** is a [safetensors](https://huggingface.co/docs/safetensors) file: 8 bytes
//! (little-endian `u64`) giving the length of a JSON header, the header, then the tensors'
//! bytes (little-endian `f32`, row-major). Any safetensors reader opens it (Python:
//! `safetensors.numpy.load_file`, or `json` and `numpy.frombuffer` by hand). The header's
//! `__metadata__` (strings only, as safetensors asks) says what the file is:
//!
//! | key | value |
//! |---|---|
//! | `format` | `rulesmith-policy` |
//! | `version` | `1` ([`FORMAT_VERSION`]) |
//! | `game` | the game id it plays (`puerto-rico` …) |
//! | `ruleset`, `digest` | the ruleset it was trained on and its digest (for the reader) |
//! | `players` | the table it was trained at |
//! | `hidden` | the width `H` of both hidden layers |
//! | `activation` | `tanh-pade` ([`activation`]) |
//! | `inputs` | JSON list of the `I` seat-relative observation features it reads, by name |
//! | `tokens` | JSON list of the `T` action tokens it scores ([`tokens_of`]) |
//! | `trained` | how it was made (the command, steps, seed) |
//!
//! and its tensors: `scale [I]` (each input is divided by its scale), `w1 [I,H]`, `b1 [H]`,
//! `w2 [H,H]`, `b2 [H]` (the two hidden layers), `wt [T,H]`, `bt [T]` (the action tokens),
//! `wv [H]`, `bv [1]` (the value head, used by training only).
//!
//! **The network**: `h1 = act(b1 + (x / scale) · w1)`, `h2 = act(b2 + h1 · w2)`, and an
//! action's logit is the sum over its tokens `t` of `bt[t] + h2 · wt[t]`; the policy is the
//! softmax of the logits over the legal actions only. Inputs and tokens are matched by name
//! against the table it plays, so a policy plays other player counts and house rules
//! (features and tokens it does not know count as zero).

use std::collections::HashMap;

/// The version of the file format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// The `format` a policy file's metadata names.
pub const FORMAT_NAME: &str = "rulesmith-policy";
/// The largest policy file read (a bound on what a file can make the reader allocate).
pub const MAX_FILE_BYTES: usize = 256 << 20;
/// The widest hidden layer a file may have.
pub const MAX_HIDDEN: usize = 1024;

/// A policy file that cannot be used: the message says what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PolicyError(pub String);

fn bad(msg: impl Into<String>) -> PolicyError {
    PolicyError(msg.into())
}

/// What a policy file says about itself.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Meta {
    pub game: String,
    pub ruleset: String,
    pub digest: String,
    pub players: usize,
    pub trained: String,
}

/// A masked policy and value network (see the module's documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    pub meta: Meta,
    pub hidden: usize,
    /// The seat-relative observation features read, by name.
    pub inputs: Vec<String>,
    /// The action tokens scored ([`tokens_of`]).
    pub tokens: Vec<String>,
    pub scale: Vec<f32>,
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
    pub wt: Vec<f32>,
    pub bt: Vec<f32>,
    pub wv: Vec<f32>,
    pub bv: Vec<f32>,
}

/// The hidden layers' activation, a tanh of its own: `x(27 + x²)/(27 + 9x²)` on
/// `[-3, 3]`, ±1 beyond (a Padé approximant of tanh, within 0.025 of it, smooth where it
/// meets ±1). A division instead of an exponential: the compiler vectorises it, and
/// training and play compute exactly the same function.
#[inline]
pub fn activation(x: f32) -> f32 {
    let x = x.clamp(-3.0, 3.0);
    let x2 = x * x;
    x * (27.0 + x2) / (27.0 + 9.0 * x2)
}

/// The derivative of [`activation`] at `x` (the pre-activation).
#[inline]
pub fn activation_slope(x: f32) -> f32 {
    if !(-3.0..=3.0).contains(&x) {
        return 0.0;
    }
    let x2 = x * x;
    let d = 27.0 + 9.0 * x2;
    9.0 * (9.0 - x2) * (9.0 - x2) / (d * d)
}

/// The tokens of an action's notation: its first word (the kind of action), each later
/// word with its kind and place (`ship.1:corn`), and, when `whole`, the whole notation
/// (`=ship corn 2`). A logit is a sum over tokens: actions of a kind share what they have
/// in common, and a wide action space (the expansion's 158,950 ids) needs few weights.
pub fn tokens_of(notation: &str, whole: bool, out: &mut Vec<String>) {
    out.clear();
    let mut words = notation.split_whitespace();
    let Some(kind) = words.next() else { return };
    out.push(kind.to_string());
    for (i, w) in words.enumerate() {
        out.push(format!("{kind}.{}:{w}", i + 1));
    }
    if whole {
        out.push(format!("={notation}"));
    }
}

/// The action spaces up to this size also score each whole action ([`tokens_of`]).
pub const WHOLE_ACTIONS_UP_TO: usize = 4096;

impl Policy {
    /// A new network with weights drawn from `rng` (scaled as the reference trainer's:
    /// √2/√fan-in for the hidden layers, 0.01/√H for the tokens, so that the first policy
    /// is near uniform).
    pub fn new(meta: Meta, inputs: Vec<String>, tokens: Vec<String>, hidden: usize, rng: &mut crate::rng::Rng) -> Self {
        let (i, t, h) = (inputs.len(), tokens.len(), hidden);
        let mut normal = |n: usize, scale: f64| -> Vec<f32> {
            (0..n)
                .map(|_| {
                    // Box–Muller from the seeded generator.
                    let u1 = rng.unit().max(1e-12);
                    let u2 = rng.unit();
                    ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos() * scale) as f32
                })
                .collect()
        };
        let w1 = normal(i * h, 2f64.sqrt() / (i.max(1) as f64).sqrt());
        let w2 = normal(h * h, 2f64.sqrt() / (h.max(1) as f64).sqrt());
        let wt = normal(t * h, 0.01 / (h.max(1) as f64).sqrt());
        let wv = normal(h, 1.0 / (h.max(1) as f64).sqrt());
        Policy {
            meta,
            hidden,
            inputs,
            tokens,
            scale: vec![1.0; i],
            w1,
            b1: vec![0.0; h],
            w2,
            b2: vec![0.0; h],
            wt,
            bt: vec![0.0; t],
            wv,
            bv: vec![0.0],
        }
    }

    fn tensors(&self) -> [(&'static str, Vec<usize>, &[f32]); 9] {
        let (i, h, t) = (self.inputs.len(), self.hidden, self.tokens.len());
        [
            ("scale", vec![i], &self.scale),
            ("w1", vec![i, h], &self.w1),
            ("b1", vec![h], &self.b1),
            ("w2", vec![h, h], &self.w2),
            ("b2", vec![h], &self.b2),
            ("wt", vec![t, h], &self.wt),
            ("bt", vec![t], &self.bt),
            ("wv", vec![h], &self.wv),
            ("bv", vec![1], &self.bv),
        ]
    }

    /// The policy as a file's bytes (see the module's documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut header = serde_json::Map::new();
        let mut meta = serde_json::Map::new();
        let s = |v: &str| serde_json::Value::String(v.to_string());
        meta.insert("format".into(), s(FORMAT_NAME));
        meta.insert("version".into(), s(&FORMAT_VERSION.to_string()));
        meta.insert("game".into(), s(&self.meta.game));
        meta.insert("ruleset".into(), s(&self.meta.ruleset));
        meta.insert("digest".into(), s(&self.meta.digest));
        meta.insert("players".into(), s(&self.meta.players.to_string()));
        meta.insert("hidden".into(), s(&self.hidden.to_string()));
        meta.insert("activation".into(), s("tanh-pade"));
        meta.insert("inputs".into(), s(&serde_json::Value::from(self.inputs.clone()).to_string()));
        meta.insert("tokens".into(), s(&serde_json::Value::from(self.tokens.clone()).to_string()));
        meta.insert("trained".into(), s(&self.meta.trained));
        header.insert("__metadata__".into(), serde_json::Value::Object(meta));
        let mut at = 0usize;
        let tensors = self.tensors();
        for (name, shape, data) in &tensors {
            let end = at + data.len() * 4;
            header.insert(
                (*name).to_string(),
                serde_json::json!({"dtype": "F32", "shape": shape, "data_offsets": [at, end]}),
            );
            at = end;
        }
        let mut text = serde_json::Value::Object(header).to_string().into_bytes();
        // The data starts 8-byte aligned (as safetensors' writer pads, with spaces).
        while (8 + text.len()) % 8 != 0 {
            text.push(b' ');
        }
        let mut out = Vec::with_capacity(8 + text.len() + at);
        out.extend_from_slice(&(text.len() as u64).to_le_bytes());
        out.extend_from_slice(&text);
        for (_, _, data) in &tensors {
            for x in data.iter() {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out
    }

    /// Reads a policy file's bytes, checking every part: the format and version, each
    /// tensor's type, shape and place, the names' counts, finite numbers.
    pub fn from_bytes(bytes: &[u8]) -> Result<Policy, PolicyError> {
        let (header, data) = split_file(bytes)?;
        let meta = header
            .get("__metadata__")
            .and_then(|m| m.as_object())
            .ok_or_else(|| bad("not a policy file: its header has no `__metadata__`"))?;
        let mut p = Policy::of_metadata(meta)?;
        let shapes: Vec<(&str, Vec<usize>)> = p.tensors().into_iter().map(|(name, shape, _)| (name, shape)).collect();
        let mut read = HashMap::new();
        for (name, shape) in shapes {
            read.insert(name, tensor(&header, data, name, &shape)?);
        }
        let mut take = |name: &str| read.remove(name).unwrap_or_default();
        p.scale = take("scale");
        p.w1 = take("w1");
        p.b1 = take("b1");
        p.w2 = take("w2");
        p.b2 = take("b2");
        p.wt = take("wt");
        p.bt = take("bt");
        p.wv = take("wv");
        p.bv = take("bv");
        if let Some(i) = p.scale.iter().position(|&s| s <= 0.0) {
            return Err(bad(format!("input `{}` has scale {}: scales are positive", p.inputs[i], p.scale[i])));
        }
        Ok(p)
    }

    /// A policy of the file's metadata (format, version, activation, sizes and names
    /// checked), its tensors still empty.
    fn of_metadata(meta: &serde_json::Map<String, serde_json::Value>) -> Result<Policy, PolicyError> {
        let text = |key: &str| -> Result<&str, PolicyError> {
            meta.get(key).and_then(|v| v.as_str()).ok_or_else(|| bad(format!("the metadata has no `{key}`")))
        };
        if text("format").ok() != Some(FORMAT_NAME) {
            return Err(bad(format!("not a policy file: the metadata's `format` is not `{FORMAT_NAME}`")));
        }
        let version = text("version")?;
        if version != FORMAT_VERSION.to_string() {
            return Err(bad(format!(
                "policy format version {version}: this build reads version {FORMAT_VERSION} (train it again, or use a matching build)"
            )));
        }
        let activation = text("activation")?;
        if activation != "tanh-pade" {
            return Err(bad(format!("activation `{activation}`: this build knows `tanh-pade`")));
        }
        let number = |key: &str, most: usize| -> Result<usize, PolicyError> {
            let v = text(key)?;
            v.parse::<usize>()
                .ok()
                .filter(|n| (1..=most).contains(n))
                .ok_or_else(|| bad(format!("`{key}` is `{v}`: expected a whole number from 1 to {most}")))
        };
        let hidden = number("hidden", MAX_HIDDEN)?;
        let players = number("players", 64)?;
        let names = |key: &str| -> Result<Vec<String>, PolicyError> {
            serde_json::from_str::<Vec<String>>(text(key)?)
                .map_err(|e| bad(format!("`{key}` is not a JSON list of names ({e})")))
        };
        let inputs = names("inputs")?;
        let tokens = names("tokens")?;
        Ok(Policy {
            meta: Meta {
                game: text("game")?.to_string(),
                ruleset: text("ruleset")?.to_string(),
                digest: text("digest")?.to_string(),
                players,
                trained: text("trained").unwrap_or_default().to_string(),
            },
            hidden,
            inputs,
            tokens,
            scale: Vec::new(),
            w1: Vec::new(),
            b1: Vec::new(),
            w2: Vec::new(),
            b2: Vec::new(),
            wt: Vec::new(),
            bt: Vec::new(),
            wv: Vec::new(),
            bv: Vec::new(),
        })
    }

    /// Reads and checks a policy file; the error names the file.
    pub fn read(path: &std::path::Path) -> Result<Policy, PolicyError> {
        let meta = std::fs::metadata(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
        if meta.len() > MAX_FILE_BYTES as u64 {
            return Err(bad(format!(
                "{}: {} bytes: a policy file has at most {MAX_FILE_BYTES}",
                path.display(),
                meta.len()
            )));
        }
        let bytes = std::fs::read(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
        Policy::from_bytes(&bytes).map_err(|e| bad(format!("{}: {e}", path.display())))
    }
}

/// A file's JSON header and the data after it, the sizes checked.
fn split_file(bytes: &[u8]) -> Result<(serde_json::Value, &[u8]), PolicyError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(bad(format!("{} bytes: a policy file has at most {MAX_FILE_BYTES}", bytes.len())));
    }
    let Some((len, rest)) = bytes.split_first_chunk::<8>() else {
        return Err(bad("not a policy file: shorter than its 8-byte header length"));
    };
    let len = u64::from_le_bytes(*len);
    let Some(header) = usize::try_from(len).ok().and_then(|n| rest.get(..n)) else {
        return Err(bad(format!("not a policy file: its header length {len} runs past the file's end")));
    };
    let data = rest.get(header.len()..).unwrap_or_default();
    let header: serde_json::Value =
        serde_json::from_slice(header).map_err(|e| bad(format!("not a policy file: its header is not JSON ({e})")))?;
    Ok((header, data))
}

/// The numbers of tensor `name`, which must be `F32` of `shape`, within `data` and finite.
fn tensor(header: &serde_json::Value, data: &[u8], name: &str, shape: &[usize]) -> Result<Vec<f32>, PolicyError> {
    let t = header.get(name).ok_or_else(|| bad(format!("the file has no tensor `{name}`")))?;
    if t.get("dtype").and_then(|d| d.as_str()) != Some("F32") {
        return Err(bad(format!("tensor `{name}` is not F32")));
    }
    let got: Option<Vec<usize>> = t
        .get("shape")
        .and_then(|s| s.as_array())
        .map(|a| a.iter().filter_map(|x| x.as_u64().map(|x| x as usize)).collect());
    if got.as_deref() != Some(shape) {
        return Err(bad(format!(
            "tensor `{name}` has shape {got:?}; the metadata's inputs, tokens and hidden width make it {shape:?}"
        )));
    }
    let offsets: Option<(usize, usize)> = t.get("data_offsets").and_then(|o| o.as_array()).and_then(|o| {
        match (o.first()?.as_u64(), o.get(1)?.as_u64(), o.len()) {
            (Some(a), Some(b), 2) => Some((usize::try_from(a).ok()?, usize::try_from(b).ok()?)),
            _ => None,
        }
    });
    let count: usize = shape.iter().product();
    let Some((start, end)) = offsets.filter(|&(a, b)| b >= a && b - a == count * 4) else {
        return Err(bad(format!("tensor `{name}`: its data_offsets do not hold {count} F32 numbers")));
    };
    let Some(raw) = data.get(start..end) else {
        return Err(bad(format!("tensor `{name}`: its data runs past the file's end (truncated file?)")));
    };
    let values: Vec<f32> = raw.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    if let Some(i) = values.iter().position(|x| !x.is_finite()) {
        return Err(bad(format!("tensor `{name}`: number {i} is not finite")));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Policy {
        let meta =
            Meta { game: "toy".into(), ruleset: "toy".into(), digest: "d".into(), players: 2, trained: "t".into() };
        let mut rng = crate::rng::Rng::from_seed(3);
        Policy::new(meta, vec!["a".into(), "b".into(), "c".into()], vec!["take".into(), "pass".into()], 4, &mut rng)
    }

    #[test]
    fn a_policy_file_round_trips() {
        let p = small();
        let bytes = p.to_bytes();
        assert_eq!(Policy::from_bytes(&bytes).unwrap(), p);
    }

    #[test]
    fn bad_policy_files_say_what_is_wrong() {
        let p = small();
        let bytes = p.to_bytes();
        let err = |b: &[u8]| Policy::from_bytes(b).unwrap_err().to_string();
        assert!(err(&bytes[..4]).contains("shorter than"));
        assert!(err(&bytes[..bytes.len() - 3]).contains("past the file's end"), "{}", err(&bytes[..bytes.len() - 3]));
        let mut huge = bytes.clone();
        huge[..8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(err(&huge).contains("header length"));
        let len = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
        let (text, data) = (std::str::from_utf8(&bytes[8..8 + len]).unwrap(), &bytes[8 + len..]);
        let redo = |from: &str, to: &str| {
            assert!(text.contains(from), "{from}");
            let t = text.replacen(from, to, 1);
            let mut b = (t.len() as u64).to_le_bytes().to_vec();
            b.extend_from_slice(t.as_bytes());
            b.extend_from_slice(data);
            b
        };
        assert!(err(&redo("\"version\":\"1\"", "\"version\":\"9\"")).contains("version 9"));
        assert!(err(&redo("rulesmith-policy", "other")).contains("not a policy file"));
        assert!(err(&redo("\"hidden\":\"4\"", "\"hidden\":\"5\"")).contains("shape"));
        let mut nan = bytes.clone();
        let n = nan.len();
        nan[n - 4..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(err(&nan).contains("`bv`: number 0 is not finite"));
    }

    #[test]
    fn the_activation_is_odd_bounded_and_its_slope_matches() {
        for i in -50..=50 {
            let x = i as f32 * 0.1;
            assert!((activation(x) + activation(-x)).abs() < 1e-6);
            assert!(activation(x).abs() <= 1.0);
            assert!((activation(x) - x.tanh()).abs() < 0.03, "{x}");
            let numeric = (activation(x + 1e-3) - activation(x - 1e-3)) / 2e-3;
            assert!((numeric - activation_slope(x)).abs() < 2e-2, "{x}: {numeric} {}", activation_slope(x));
        }
    }

    #[test]
    fn tokens_name_the_kind_and_each_word_by_place() {
        let mut t = Vec::new();
        tokens_of("ship corn 2", true, &mut t);
        assert_eq!(t, ["ship", "ship.1:corn", "ship.2:2", "=ship corn 2"]);
        tokens_of("pass", false, &mut t);
        assert_eq!(t, ["pass"]);
    }
}
