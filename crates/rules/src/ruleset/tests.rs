use super::*;

const BASE: &str = r#"
[ruleset]
name = "base"
game = "demo"

[limits]
players = 4
vp = 75

[[buildings]]
id = "hut"
cost = 2

[[buildings]]
id = "market"
cost = 1
"#;

fn bundled() -> Vec<Bundled> {
    vec![Bundled { name: "base", path: "rulesets/base.toml", text: BASE }]
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rulesmith-ruleset-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn extends_merges_by_id_and_removes() {
    let dir = scratch("merge");
    let f = write(
        &dir,
        "house.toml",
        r#"
[ruleset]
extends = "base"
[limits]
vp = 100
[[buildings]]
id = "hut"
cost = 3
[[buildings]]
id = "market"
remove = true
[[buildings]]
id = "tower"
cost = 9
"#,
    );
    let l = load(&f, &bundled()).unwrap();
    assert_eq!(l.name, "house");
    assert_eq!(l.game, "demo");
    let j = l.tree.to_json();
    assert_eq!(j["limits"]["players"], 4);
    assert_eq!(j["limits"]["vp"], 100);
    assert_eq!(j["buildings"], serde_json::json!([{"id":"hut","cost":3},{"id":"tower","cost":9}]));
    let base = load("base", &bundled()).unwrap();
    let d = diff(&base.tree, &l.tree);
    let keys: Vec<&str> = d.iter().map(|x| x.key.as_str()).collect();
    assert!(keys.contains(&"limits.vp"));
    assert!(keys.contains(&"buildings[hut].cost"));
    assert!(keys.contains(&"buildings[market].cost"));
    assert!(keys.contains(&"buildings[tower].cost"));
    assert_ne!(base.digest(), l.digest());
}

#[test]
fn syntax_error_is_located() {
    let dir = scratch("syntax");
    let f = write(&dir, "bad.toml", "[ruleset]\ngame = \"demo\"\ncost = = 3\n");
    let e = load(&f, &bundled()).unwrap_err().render();
    assert!(e.contains("bad.toml:3:"), "{e}");
    assert!(e.contains("cost = = 3"), "{e}");
}

#[test]
fn unknown_bundled_name_lists_the_known() {
    let e = load("nope", &bundled()).unwrap_err().render();
    assert!(e.contains("unknown ruleset `nope`") && e.contains("base"), "{e}");
}

#[test]
fn extends_loop_is_refused() {
    let dir = scratch("loop");
    write(&dir, "a.toml", "[ruleset]\ngame = \"demo\"\nextends = \"b.toml\"\n");
    let b = write(&dir, "b.toml", "[ruleset]\ngame = \"demo\"\nextends = \"a.toml\"\n");
    let e = load(&b, &bundled()).unwrap_err().render();
    assert!(e.contains("loops"), "{e}");
    // Located at the `extends` that closes the loop (a.toml line 3), not at 1:1.
    assert!(e.contains("a.toml:3:11: `extends` loops"), "{e}");
}

/// Issue 15: a chain deeper than the limit names the limit (it used to say "loops"), and a
/// missing parent is located at the `extends` that names it.
#[test]
fn extends_depth_limit_is_named_and_located() {
    let dir = scratch("deep");
    let depth = super::MAX_EXTENDS_DEPTH + 1;
    write(&dir, &format!("f{depth}.toml"), "[ruleset]\ngame = \"demo\"\n");
    for i in 1..depth {
        write(&dir, &format!("f{i}.toml"), &format!("[ruleset]\ngame = \"demo\"\nextends = \"f{}.toml\"\n", i + 1));
    }
    let e = load(&dir.join("f1.toml").to_string_lossy(), &bundled()).unwrap_err().render();
    assert!(e.contains("longer than the limit of 16 files"), "{e}");
    assert!(!e.contains("loops"), "{e}");
    assert!(e.contains(&format!("f{}.toml:3:11", depth - 1)), "{e}");
    // One file fewer is within the limit.
    let ok = load(&dir.join("f2.toml").to_string_lossy(), &bundled());
    assert!(ok.is_ok(), "{:?}", ok.err().map(|e| e.render()));

    let m = write(&dir, "m.toml", "[ruleset]\ngame = \"demo\"\nextends = \"missing.toml\"\n");
    let e = load(&m, &bundled()).unwrap_err().render();
    assert!(e.contains("m.toml:3:11"), "{e}");
}

/// A table entry with `remove = true` deletes the base's entry of that key (a good of a
/// `[goods.*]` table); one the base lacks is an error naming it.
#[test]
fn extends_removes_table_entries() {
    let dir = scratch("rm-key");
    let f = write(&dir, "h.toml", "[ruleset]\nextends = \"base\"\n[limits.vp]\nremove = true\n");
    let j = load(&f, &bundled()).unwrap().tree.to_json();
    assert_eq!(j["limits"], serde_json::json!({"players": 4}));
    let g = write(&dir, "g.toml", "[ruleset]\nextends = \"base\"\n[limits.gold]\nremove = true\n");
    let e = load(&g, &bundled()).unwrap_err().render();
    assert!(e.contains("cannot remove `gold`: the base ruleset has no such entry") && e.contains("g.toml:"), "{e}");
}

#[test]
fn removing_unknown_id_is_an_error() {
    let dir = scratch("rm");
    let f = write(&dir, "h.toml", "[ruleset]\nextends = \"base\"\n[[buildings]]\nid = \"castle\"\nremove = true\n");
    let e = load(&f, &bundled()).unwrap_err().render();
    assert!(e.contains("cannot remove `castle`") && e.contains("h.toml:3:"), "{e}");
}

#[test]
fn table_reader_reports_all_problems() {
    let mut sources = Sources::default();
    let text = "cost = -1\nvp = \"x\"\ncots = 3\n";
    let file = sources.add("t.toml", text);
    let mut d = Diagnostics::default();
    let tree = node::parse(file, text, &mut d).unwrap();
    let mut t = Table::new(&tree, &mut d).unwrap();
    assert_eq!(t.int_or(&mut d, "cost", 0, 0..=10), None);
    assert_eq!(t.int_or(&mut d, "vp", 0, 0..=10), None);
    assert_eq!(t.req(&mut d, "circles", "an integer from 0 to 3"), None);
    t.finish(&mut d);
    let r = d.render(&sources);
    assert_eq!(d.len(), 4, "{r}");
    assert!(r.contains("t.toml:1:8: -1 is out of range"), "{r}");
    assert!(r.contains("t.toml:2:6: expected an integer, found a string"), "{r}");
    assert!(r.contains("missing key `circles`"), "{r}");
    assert!(r.contains("t.toml:3:1: unknown key `cots`: expected one of `circles`, `cost`, `vp`"), "{r}");
}

#[test]
fn per_player_tables_need_every_count() {
    let mut sources = Sources::default();
    let text = "t = { 2 = 1, 3 = 2, 6 = 1 }\n";
    let file = sources.add("p.toml", text);
    let mut d = Diagnostics::default();
    let tree = node::parse(file, text, &mut d).unwrap();
    #[derive(serde::Deserialize)]
    struct T {
        t: de::Located<de::Entries<de::Located<i64>>>,
    }
    let t: T = de::from_tree(&tree, &mut d).unwrap();
    let r = de::per_players(&t.t, 2..=5, 0..=9, &mut d);
    assert!(r.is_none());
    let out = d.render(&sources);
    assert!(out.contains("unknown player count `6`"), "{out}");
    assert!(out.contains("missing the value for 4 players"), "{out}");
    assert!(out.contains("missing the value for 5 players"), "{out}");
}

/// Locating by the line index: first and last lines, a CRLF file, an offset past the end,
/// columns counted in characters.
#[test]
fn line_index_locates_every_offset() {
    let mut s = Sources::default();
    let f = s.add("a.toml", "ab\r\ncé = 1\n\nlast");
    assert_eq!(s.line_col(f, 0), (1, 1));
    assert_eq!(s.line_text(f, 1), "ab");
    assert_eq!(s.line_col(f, 4), (2, 1));
    assert_eq!(s.line_col(f, 7), (2, 3), "é is one character of two bytes");
    assert_eq!(s.line_text(f, 2), "cé = 1");
    assert_eq!(s.line_col(f, 12), (3, 1));
    assert_eq!(s.line_text(f, 3), "");
    assert_eq!(s.line_col(f, 13), (4, 1));
    assert_eq!(s.line_text(f, 4), "last");
    assert_eq!(s.line_col(f, 999), (4, 5));
    assert_eq!(s.line_text(f, 9), "");
    assert_eq!(s.line_col(7, 3), (1, 1), "an unknown file");
}

mod derived {
    use super::*;
    use crate::ruleset::de::{self, Located};
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Limits {
        players: u8,
        vp: Located<i64>,
        label: Option<String>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Small,
        Large,
    }

    /// An effect named by its `kind`, each kind with its own keys.
    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Effect {
        Plain,
        Bonus { vp: Located<i64>, label: Option<String> },
    }

    /// A vocabulary whose first kind has keys (the stand-in for a wrong value).
    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Reward {
        Gain { vp: Located<i64> },
        Nothing,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Building {
        id: String,
        cost: u8,
        kind: Option<Kind>,
        effect: Option<Effect>,
        reward: Option<Reward>,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Raw {
        ruleset: std::collections::BTreeMap<String, String>,
        limits: Limits,
        buildings: Vec<Building>,
    }

    fn read(text: &'static str) -> (Option<Raw>, String) {
        let b = vec![Bundled { name: "t", path: "rulesets/t.toml", text }];
        let loaded = load("t", &b).unwrap();
        let mut d = Diagnostics::default();
        let raw = de::from_tree::<Raw>(&loaded.tree, &mut d);
        (raw, d.render(&loaded.sources))
    }

    #[test]
    fn a_good_ruleset_reads_with_origins() {
        let (raw, errors) = read(BASE);
        let raw = raw.unwrap_or_else(|| panic!("{errors}"));
        assert_eq!(raw.limits.players, 4);
        assert_eq!(raw.limits.vp.value, 75);
        assert_eq!(raw.limits.label, None, "an absent optional key");
        assert_eq!(raw.buildings.len(), 2);
        let mut d = Diagnostics::default();
        assert_eq!(de::int_in(&raw.limits.vp, 0..=50, &mut d), None);
        assert!(d.render(&Default::default()).contains("75 is out of range: expected an integer from 0 to 50"));
        assert!(errors.is_empty(), "{errors}");
    }

    #[test]
    fn effects_read_by_their_kind() {
        let (raw, errors) = read(
            r#"
[ruleset]
name = "t"
game = "demo"

[limits]
players = 4
vp = 75

[[buildings]]
id = "hut"
cost = 2
effect = { kind = "plain" }

[[buildings]]
id = "inn"
cost = 2
effect = { kind = "bonus", vp = 2 }
"#,
        );
        let raw = raw.unwrap_or_else(|| panic!("{errors}"));
        assert_eq!(raw.buildings[0].effect, Some(Effect::Plain));
        let Some(Effect::Bonus { vp, label: None }) = &raw.buildings[1].effect else { panic!("{raw:?}") };
        assert_eq!(vp.value, 2);
        assert_ne!(vp.origin, Origin::REPORTED);
        assert!(errors.is_empty(), "{errors}");
    }

    #[test]
    fn every_problem_is_reported_at_its_place() {
        let (raw, errors) = read(
            r#"
[ruleset]
name = "t"
game = "demo"

[limits]
players = 400
vp = "many"
lable = "x"

[[buildings]]
id = "hut"
kind = "huge"

[[buildings]]
id = 3
cost = 1

[[buildings]]
id = "inn"
cost = 1
effect = { kind = "bonus", vp = "x", colour = 1 }

[[buildings]]
id = "mill"
cost = 1
effect = { kind = "teleport", vp = 1 }

[[buildings]]
id = "shed"
cost = 1
effect = { vp = 1 }

[[buildings]]
id = "hall"
cost = 1
effect = { kind = "plain", vp = 1 }
"#,
        );
        assert!(raw.is_some(), "read with stand-ins, for the validation step");
        assert_eq!(raw.unwrap().limits.vp.origin, Origin::REPORTED, "its checks stay silent");
        for expected in [
            "rulesets/t.toml:7:11: 400 is out of range: expected an integer from 0 to 255",
            "rulesets/t.toml:8:6: expected an integer, found a string",
            "rulesets/t.toml:9:1: unknown key `lable`: expected one of `label`, `players`, `vp`; did you mean `label`?",
            "rulesets/t.toml:11:1: missing key `cost`: expected an integer",
            "rulesets/t.toml:13:8: unknown value `huge`: expected one of `small`, `large`",
            "rulesets/t.toml:16:6: expected a string, found an integer",
            "rulesets/t.toml:22:38: unknown key `colour`: expected one of `kind`, `label`, `vp`",
            "rulesets/t.toml:22:33: expected an integer, found a string",
            "rulesets/t.toml:27:19: unknown value `teleport`: expected one of `plain`, `bonus`",
            "rulesets/t.toml:32:10: missing key `kind`: expected one of `plain`, `bonus`",
            "rulesets/t.toml:37:28: unknown key `vp`: expected one of `kind`",
        ] {
            assert!(errors.contains(expected), "{expected}\n{errors}");
        }
    }

    /// A wrong value, or a kind with keys named by a bare string, stands in for its kind
    /// and the array goes on: every building after it is still read and checked.
    #[test]
    fn a_wrong_kind_does_not_end_its_array() {
        let (raw, errors) = read(
            r#"
[ruleset]
name = "t"
game = "demo"

[limits]
players = 4
vp = 75

[[buildings]]
id = "a"
cost = 1
reward = 1

[[buildings]]
id = "b"
cost = 1
reward = "gain"

[[buildings]]
id = "c"
cost = 1
reward = "nothing"

[[buildings]]
id = "d"
cost = 300
"#,
        );
        let raw = raw.unwrap_or_else(|| panic!("{errors}"));
        assert_eq!(raw.buildings.len(), 4, "{errors}");
        assert_eq!(raw.buildings[2].reward, Some(Reward::Nothing));
        for expected in [
            "rulesets/t.toml:13:10: expected one of `gain`, `nothing`, found an integer",
            "rulesets/t.toml:18:10: missing key `vp`: expected an integer",
            "rulesets/t.toml:27:8: 300 is out of range: expected an integer from 0 to 255",
        ] {
            assert!(errors.contains(expected), "{expected}\n{errors}");
        }
        assert_eq!(errors.matches("error").count(), 3, "{errors}");
    }

    /// A table with a wrong value inside keeps its origin (the checks across it still
    /// run); a value that stands in, however it was written, takes `Origin::REPORTED`.
    #[test]
    fn only_a_stand_in_loses_its_origin() {
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct Outer {
            limits: Located<Limits>,
            size: Located<Kind>,
            other: Located<Kind>,
            fine: Located<Kind>,
        }
        let text = "size = { kind = \"huge\" }\nother = 3\nfine = \"large\"\n[limits]\nplayers = \"x\"\nvp = 1\n";
        let mut sources = Sources::default();
        let file = sources.add("o.toml", text);
        let mut d = Diagnostics::default();
        let tree = node::parse(file, text, &mut d).unwrap();
        let o: Outer = de::from_tree(&tree, &mut d).unwrap();
        assert_ne!(o.limits.origin, Origin::REPORTED, "{}", d.render(&sources));
        assert_eq!(o.limits.value.players, 0);
        assert_eq!(o.size.origin, Origin::REPORTED);
        assert_eq!(o.other.origin, Origin::REPORTED);
        assert_eq!((o.fine.value, o.fine.origin == Origin::REPORTED), (Kind::Large, false));
        assert_eq!(d.len(), 3, "{}", d.render(&sources));
    }

    /// An `Int` checks its range while reading and names it in every message about it.
    #[test]
    fn an_int_checks_and_names_its_range() {
        #[derive(Debug, Deserialize)]
        struct Ship {
            ships: de::Int<1, 50>,
            dice: de::Int<1, 8>,
            flags: de::Int<0, 9>,
            spare: de::Int<0, 9>,
        }
        let text = "ships = 0\ndice = \"four\"\nflags = 3\n";
        let mut sources = Sources::default();
        let file = sources.add("s.toml", text);
        let mut d = Diagnostics::default();
        let tree = node::parse(file, text, &mut d).unwrap();
        let s: Ship = de::from_tree(&tree, &mut d).unwrap();
        let r = d.render(&sources);
        assert_eq!((s.ships.get(), s.dice.get(), s.flags.get(), s.spare.get()), (None, None, Some(3), None));
        for expected in [
            "s.toml:1:9: 0 is out of range: expected an integer from 1 to 50",
            "s.toml:2:8: expected an integer from 1 to 8, found a string",
            "missing key `spare`: expected an integer from 0 to 9",
        ] {
            assert!(r.contains(expected), "{expected}\n{r}");
        }
        assert_eq!(d.len(), 3, "{r}");
    }

    /// A typed rule reads itself: a `u8` field by its declared range, and a field whose
    /// own reader finds a problem reports it in reading order and goes on.
    #[test]
    fn typed_fields_read_themselves_and_report_in_order() {
        fn evens<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
            let list = <Located<Vec<Located<i64>>> as Deserialize>::deserialize(d)?;
            let mut count = 0;
            for n in &list.value {
                if n.value % 2 == 0 {
                    count += 1;
                } else {
                    de::reject(n.origin, format!("{} is odd", n.value))?;
                }
            }
            Ok(count)
        }
        #[derive(Debug, Deserialize)]
        struct Row {
            #[serde(deserialize_with = "de::byte::<1, 6, _>")]
            die: u8,
            #[serde(deserialize_with = "evens")]
            evens: u8,
        }
        #[derive(Debug, Deserialize)]
        struct Rows {
            rows: Vec<Row>,
        }
        let text = "rows = [{ die = 9, evens = [2, 3] }, { die = 4, evens = [5, 4, 6] }]\n";
        let mut sources = Sources::default();
        let file = sources.add("r.toml", text);
        let mut d = Diagnostics::default();
        let tree = node::parse(file, text, &mut d).unwrap();
        let rows: Rows = de::from_tree(&tree, &mut d).unwrap();
        let got: Vec<(u8, u8)> = rows.rows.iter().map(|r| (r.die, r.evens)).collect();
        assert_eq!(got, [(0, 1), (4, 2)], "a stand-in reads 0; every row is read");
        let r = d.render(&sources);
        let at = |needle: &str| r.find(needle).unwrap_or_else(|| panic!("{needle}\n{r}"));
        assert!(at("r.toml:1:17: 9 is out of range") < at("r.toml:1:32: 3 is odd"), "{r}");
        assert!(at("r.toml:1:32: 3 is odd") < at("r.toml:1:58: 5 is odd"), "{r}");
        assert_eq!(d.len(), 3, "{r}");
        // Outside a reading, a field's problem is an error of the format read.
        let e = serde_json::from_str::<Row>(r#"{ "die": 1, "evens": 3 }"#);
        assert!(e.is_err());
    }

    /// A table by player count reads itself for the counts of the pass: each count
    /// present, no other; numbers of other widths by their range; a helper that writes
    /// to `Diagnostics` reports from inside a field's reader.
    #[test]
    fn per_player_tables_and_numbers_read_themselves() {
        fn named<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
            let v = <Located<String> as Deserialize>::deserialize(d)?;
            Ok(de::checked(|d| de::id(&v, d).map(str::to_string))?.unwrap_or_default())
        }
        #[derive(Debug, Deserialize)]
        struct Rules {
            #[serde(deserialize_with = "de::per_players_byte::<1, 9, _>")]
            ships: [u8; crate::MAX_PLAYERS + 1],
            #[serde(deserialize_with = "de::num::<1, 100_000, _, _>")]
            rounds: u32,
            #[serde(deserialize_with = "named")]
            id: String,
        }
        let read = |text: &str, players: std::ops::RangeInclusive<usize>| {
            let mut sources = Sources::default();
            let file = sources.add("r.toml", text);
            let mut d = Diagnostics::default();
            let tree = node::parse(file, text, &mut d).unwrap();
            let rules: Option<Rules> = de::with_players(players, || de::from_tree(&tree, &mut d));
            (rules.unwrap(), d.render(&sources), d.len())
        };
        let (rules, r, n) = read("ships = { 3 = 4, 4 = 5 }\nrounds = 70000\nid = \"cargo\"\n", 3..=4);
        assert_eq!(
            (n, &rules.ships[..5], rules.rounds, rules.id.as_str()),
            (0, &[0, 0, 0, 4, 5][..], 70_000, "cargo"),
            "{r}"
        );
        let (rules, r, n) = read("ships = { 3 = 4, 5 = 10 }\nrounds = 0\nid = \"Big Ship\"\n", 3..=4);
        assert_eq!(n, 4, "{r}");
        assert!(r.contains("r.toml:1:18: unknown player count `5`: expected 3 to 4"), "{r}");
        assert!(r.contains("r.toml:1:9: missing the value for 4 players"), "{r}");
        assert!(r.contains("r.toml:2:10: 0 is out of range: expected an integer from 1 to 100000"), "{r}");
        assert!(r.contains("r.toml:3:6: "), "the id's own check, at the id: {r}");
        assert_eq!((rules.ships, rules.rounds, rules.id.as_str()), ([0; crate::MAX_PLAYERS + 1], 0, ""), "stand-ins");
    }

    /// A name that another section declares is looked up as it is read, in the context
    /// of the pass: an unknown one is reported at its place, naming the known ones.
    #[test]
    fn names_are_looked_up_in_the_context_of_the_pass() {
        struct Goods(Vec<&'static str>);
        fn good<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
            let name = <Located<String> as Deserialize>::deserialize(d)?;
            let names = de::context(|g: &Goods| g.0.clone()).unwrap_or_default();
            Ok(de::lookup(names, "good", &name)?.map_or(0, |i| i as u8))
        }
        #[derive(Debug, Deserialize)]
        struct Row {
            #[serde(deserialize_with = "good")]
            good: u8,
            #[serde(deserialize_with = "good")]
            other: u8,
        }
        let text = "good = \"rum\"\nother = \"suger\"\n";
        let mut sources = Sources::default();
        let file = sources.add("r.toml", text);
        let mut d = Diagnostics::default();
        let tree = node::parse(file, text, &mut d).unwrap();
        // "" stands in for a wrong id: it keeps its place but is neither found nor listed.
        let goods = Goods(vec!["sugar", "", "rum"]);
        let row: Option<Row> = de::with_context(goods, || de::from_tree(&tree, &mut d));
        let r = d.render(&sources);
        let row = row.unwrap();
        assert_eq!((row.good, row.other, d.len()), (2, 0, 1), "{r}");
        assert!(
            r.contains("r.toml:2:9: unknown good `suger`: expected one of sugar, rum; did you mean `sugar`?"),
            "{r}"
        );
        // Outside the pass, or asked for another type, there is no context.
        assert!(de::context(|_: &Goods| ()).is_none());
        assert!(de::with_context(Goods(vec![]), || de::context(|_: &String| ())).is_none());
        // Outside a reading, the unknown name is an error of the format read.
        let e =
            de::lookup::<serde_json::Error>(["a"], "good", &Located { value: "b".into(), origin: Origin::default() });
        assert!(e.is_err());
    }
}

/// The marker stays under the offending text after a tab and after wide characters (CJK,
/// emoji take two columns on a terminal), and every problem of the file is rendered.
#[test]
fn markers_stay_under_their_text_after_tabs_and_wide_characters() {
    let mut sources = Sources::default();
    let text = "[ruleset]\n\tcost = \"x\"\nname = \"港口\" = 3\nlabel = \"🎲🎲\"\tvp = -1\n";
    let file = sources.add("wide.toml", text);
    let at = |needle: &str| {
        let start = text.find(needle).unwrap();
        Origin::new(file, start..start + needle.len())
    };
    let mut d = Diagnostics::default();
    d.error(at("\"x\""), "expected an integer, found a string");
    d.error(at("= 3"), "expected a newline");
    d.error(at("-1"), "-1 is out of range: expected an integer from 0 to 99");
    let expected = [
        "error: wide.toml:2:9: expected an integer, found a string",
        "  |",
        "2 |     cost = \"x\"",
        "  |            ^^^",
        "error: wide.toml:3:13: expected a newline",
        "  |",
        "3 | name = \"港口\" = 3",
        "  |               ^^^",
        "error: wide.toml:4:19: -1 is out of range: expected an integer from 0 to 99",
        "  |",
        "4 | label = \"🎲🎲\"    vp = -1",
        "  |                        ^^",
    ];
    assert_eq!(d.render(&sources).lines().collect::<Vec<_>>(), expected);
}

/// A misspelt id in a derived ruleset is one problem with a suggestion: removing it, or
/// changing it (which reads as a new element that lacks every key), or naming the base.
#[test]
fn a_misspelt_id_is_one_problem_with_a_suggestion() {
    let e = load("bsae", &bundled()).unwrap_err().render();
    assert!(e.contains("unknown ruleset `bsae`") && e.ends_with("; did you mean `base`?\n"), "{e}");

    let dir = scratch("misspelt");
    let gone =
        write(&dir, "gone.toml", "[ruleset]\nextends = \"base\"\n[[buildings]]\nid = \"markte\"\nremove = true\n");
    let e = load(&gone, &bundled()).unwrap_err().render();
    assert!(
        e.contains("cannot remove `markte`: the base ruleset has no element with that id; did you mean `market`?"),
        "{e}"
    );

    let f = write(&dir, "dear.toml", "[ruleset]\nextends = \"base\"\n[[buildings]]\nid = \"hutt\"\n");
    let l = load(&f, &bundled()).unwrap();
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Building {
        id: de::Located<String>,
        cost: de::Located<i64>,
        label: de::Located<String>,
    }
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Rules {
        ruleset: serde::de::IgnoredAny,
        limits: serde::de::IgnoredAny,
        buildings: Vec<Building>,
    }
    let mut d = Diagnostics::default();
    let _: Option<Rules> = de::from_tree(&l.tree, &mut d);
    let e = d.render(&l.sources);
    // (The base's buildings have no label: their problems are their own.)
    assert_eq!(e.lines().filter(|l| l.starts_with("error:") && l.contains("dear.toml")).count(), 1, "{e}");
    assert!(
        e.contains(
            "dear.toml:3:1: new element `hutt` lacks `cost`, `label`: the base ruleset has no element with that id; did you mean `hut`?"
        ),
        "{e}"
    );

    // A numbered or prefixed id is a deliberate new element: its keys are missing as usual.
    let f = write(&dir, "more.toml", "[ruleset]\nextends = \"base\"\n[[buildings]]\nid = \"hut-2\"\n");
    let l = load(&f, &bundled()).unwrap();
    let mut d = Diagnostics::default();
    let _: Option<Rules> = de::from_tree(&l.tree, &mut d);
    let e = d.render(&l.sources);
    assert!(e.contains("more.toml:3:1: missing key `cost`") && !e.contains("did you mean"), "{e}");
}

/// `validate` warns about likely misspelt new ids only in files the user wrote: a bundled
/// ruleset extending another (the expansion over the base game) adds elements on purpose.
#[test]
fn near_misses_only_in_the_users_files() {
    const DERIVED: &str = "[ruleset]\nextends = \"base\"\n[[buildings]]\nid = \"hutt\"\ncost = 4\n";
    let b = vec![
        Bundled { name: "base", path: "rulesets/base.toml", text: BASE },
        Bundled { name: "derived", path: "rulesets/derived.toml", text: DERIVED },
    ];
    let dir = scratch("near-bundled");
    let quiet = write(&dir, "quiet.toml", "[ruleset]\nextends = \"derived\"\n[limits]\nvp = 80\n");
    let l = load(&quiet, &b).unwrap();
    assert_eq!(l.sources.near_misses().count(), 0, "{:?}", l.sources.near_misses().collect::<Vec<_>>());

    let own = write(&dir, "own.toml", "[ruleset]\nextends = \"derived\"\n[[buildings]]\nid = \"markte\"\ncost = 2\n");
    let l = load(&own, &b).unwrap();
    let found: Vec<(String, String, String)> = l
        .sources
        .near_misses()
        .map(|(o, id, near)| (l.sources.name(usize::from(o.file)).to_string(), id.to_string(), near.to_string()))
        .collect();
    assert_eq!(found, vec![(own.clone(), "markte".to_string(), "market".to_string())]);
}
