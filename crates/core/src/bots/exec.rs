//! `exec:PROGRAM [ARGS]`: a bot in any language, run as a subprocess that speaks JSON
//! lines on its standard input and output.
//!
//! One process plays one seat of one game. It receives one JSON object per line:
//!
//! - `{"type":"start","game":"puerto-rico","players":4,"seat":2,"seed":123}` once, first
//!   (`seed`, for a bot that wants to be reproducible, is derived one way from the
//!   game's bot generator: it tells nothing about the game's dice or face-down order,
//!   nor about the other bots' generator);
//! - `{"type":"decide","seat":2,"decision":17,"view":{…},"legal":["settler","mayor",…]}`
//!   each time the seat must act: `view` is what the seat may see (the same JSON as
//!   `rulesmith state --seat 2`, hidden values marked hidden), `legal` the legal actions
//!   in notation, in the game's stable order, `decision` how many decisions the game has
//!   had so far;
//! - `{"type":"end","scores":[…],"ranks":[…],"end":"…"}` once the game is over; then its
//!   standard input closes and it should exit.
//!
//! To each `decide` it answers with one line: the action in notation (`settler`), the
//! same as a JSON string (`"settler"`), or a JSON object `{"action":"settler"}` or
//! `{"index":0}` (an index into `legal`). Anything it writes to standard error is passed
//! through. An answer must come within the time limit ([`DEFAULT_TIME_LIMIT`] unless
//! set) and fit in [`MAX_REPLY`] bytes; a bot that crashes, falls silent, or answers
//! with anything but a legal action stops the run with an error naming it.

use super::bot::{Bot, BotError};
use crate::game::{Seat, ToMove};
use crate::json::StateJson;
use crate::rng::Rng;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::{Duration, Instant};

/// How long a bot may think about one decision unless told otherwise.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(10);
/// The longest answer line read from a bot, in bytes.
pub const MAX_REPLY: usize = 64 * 1024;
/// How many words a bot's command may have.
const MAX_ARGS: usize = 64;

/// A subprocess bot's command line and time limit, validated once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecSpec {
    command: String,
    argv: Vec<String>,
    time_limit: Duration,
}

impl ExecSpec {
    /// Reads `PROGRAM [ARGS]` (words split as a POSIX shell would, quotes allowed).
    pub fn parse(command: &str) -> Result<Self, String> {
        let command = command.trim();
        // Reports and records print the command back: nothing in it may drive a terminal.
        if command.chars().any(char::is_control) {
            return Err("its command holds a control character (a line break or terminal escape)".into());
        }
        let argv = shlex::split(command).ok_or("its command has an unclosed quote")?;
        if argv.is_empty() {
            return Err("name a program after `exec:`".into());
        }
        if argv.len() > MAX_ARGS {
            return Err(format!("its command has {} words; at most {MAX_ARGS}", argv.len()));
        }
        Ok(ExecSpec { command: command.to_string(), argv, time_limit: DEFAULT_TIME_LIMIT })
    }

    /// The command as given.
    pub fn command(&self) -> &str {
        &self.command
    }

    pub fn time_limit(&self) -> Duration {
        self.time_limit
    }

    /// The same bot with another time limit per decision.
    pub fn with_time_limit(mut self, limit: Duration) -> Self {
        self.time_limit = limit;
        self
    }
}

/// A running bot process, the thread that writes to it and the thread that reads its
/// answers. The process leads a process group of its own, so that ending it ends what it
/// started too; its standard error is relayed, so nothing it starts holds ours open.
struct Running {
    child: Child,
    /// Lines for the writer thread; dropping it closes the bot's input.
    to_bot: Option<SyncSender<Vec<u8>>>,
    /// The writer's report on each line: written, or why not.
    written: Receiver<std::io::Result<()>>,
    answers: Receiver<Result<String, String>>,
}

impl Running {
    /// Ends the process and everything it started (it may already have exited) and says
    /// how it ended.
    fn stop(&mut self) -> String {
        self.to_bot = None;
        let ended = self.child.try_wait();
        end_group(&self.child);
        let how = match ended {
            Ok(Some(status)) => status.to_string(),
            _ => {
                let _ = self.child.kill();
                self.child.wait().map_or_else(|e| e.to_string(), |s| s.to_string())
            }
        };
        // Out of the running bots only once reaped: until then its id is a child of ours
        // that `end_leftovers` must not take for a leftover.
        let id = self.child.id();
        live().retain(|&p| p != id);
        end_leftovers(self.child.id());
        how
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

/// The process groups of the bots running now, so that an interrupted run can end them
/// ([`end_all`]) before it exits.
static LIVE: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

fn live() -> std::sync::MutexGuard<'static, Vec<u32>> {
    LIVE.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Ends every bot process (and what it started) of this process: for a run stopped by a
/// signal, which exits without dropping its bots.
pub fn end_all() {
    let bots: Vec<u32> = live().clone();
    for &pid in &bots {
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(pid) {
            use nix::sys::signal::{Signal, kill, killpg};
            let pid = nix::unistd::Pid::from_raw(pid);
            let _ = killpg(pid, Signal::SIGKILL);
            let _ = kill(pid, Signal::SIGKILL);
        }
        #[cfg(not(unix))]
        let _ = pid;
    }
    // The bots are reaped here, not by their owners (the run exits): then what they left
    // behind is re-parented to this process, and ended.
    #[cfg(target_os = "linux")]
    if ADOPTING.load(std::sync::atomic::Ordering::Relaxed) {
        for &pid in &bots {
            if let Ok(pid) = i32::try_from(pid) {
                let _ = nix::sys::wait::waitpid(nix::unistd::Pid::from_raw(pid), None);
            }
        }
        live().clear();
        for &pid in &bots {
            end_leftovers(pid);
        }
        end_leftovers(0);
    }
}

/// Whether this process adopts what its bots leave behind ([`adopt_orphans`]).
static ADOPTING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Linux: makes this process the "child subreaper" of everything its bots start, so that a
/// process a bot took out of its process group (`setsid`) and then left behind is
/// re-parented to this process, not to init, and ended when its bot is stopped. For a
/// program whose only child processes are its bots (the `rulesmith` binary): once on,
/// every child that is not a running bot is taken for a leftover and killed. Elsewhere,
/// and when the kernel refuses, nothing changes: what a bot leaves outside its group is
/// then not reached.
pub fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    if nix::sys::prctl::set_child_subreaper(true).is_ok() {
        ADOPTING.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The children of this process (Linux, from `/proc`).
#[cfg(target_os = "linux")]
fn children() -> Vec<u32> {
    let me = std::process::id();
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| {
            // `pid (comm) state ppid …`: the command may hold spaces and parentheses.
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let after = stat.rfind(')').map_or("", |at| &stat[at + 1..]);
            after.split_whitespace().nth(1).and_then(|p| p.parse::<u32>().ok()) == Some(me)
        })
        .collect()
}

/// With [`adopt_orphans`] on: kills and reaps every child of this process that is not a
/// running bot (what stopped bots left behind, re-parented here), until none is left and
/// the process group of the bot just stopped (`group`; 0: none) is empty. Bounded: a
/// second at most.
fn end_leftovers(group: u32) {
    #[cfg(target_os = "linux")]
    {
        use nix::sys::signal::{Signal, kill, killpg};
        use nix::unistd::Pid;
        if !ADOPTING.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        for _ in 0..200 {
            // Held while looking, so that no bot starts (and is taken for a leftover)
            // between the look and the kill.
            let running = live();
            let left: Vec<u32> = children().into_iter().filter(|p| !running.contains(p)).collect();
            for &pid in &left {
                if let Ok(pid) = i32::try_from(pid) {
                    let pid = Pid::from_raw(pid);
                    // It may lead a group (and a session) of its own: all of it goes.
                    let _ = killpg(pid, Signal::SIGKILL);
                    let _ = kill(pid, Signal::SIGKILL);
                    let _ = nix::sys::wait::waitpid(pid, None);
                }
            }
            drop(running);
            let group_gone = i32::try_from(group)
                .ok()
                .filter(|&g| g > 0)
                .is_none_or(|g| killpg(Pid::from_raw(g), None::<Signal>).is_err());
            if left.is_empty() && group_gone {
                return;
            }
            if left.is_empty() {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = group;
}

/// Starts the bot in a process group of its own (Unix), so that [`end_group`] reaches
/// whatever it starts.
fn own_group(command: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt as _;
        command.process_group(0);
    }
    #[cfg(not(unix))]
    let _ = command;
}

/// Kills the process group the bot leads: the processes it started, which would
/// otherwise outlive the run.
fn end_group(child: &Child) {
    #[cfg(unix)]
    {
        use nix::sys::signal::{Signal, killpg};
        use nix::unistd::Pid;
        if let Ok(pid) = i32::try_from(child.id()) {
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = child;
}

/// One seat's subprocess bot. The process starts at the seat's first decision.
pub struct ExecBot {
    spec: Arc<ExecSpec>,
    seat: Seat,
    running: Option<Running>,
    decisions: u64,
}

impl ExecBot {
    pub fn new(spec: Arc<ExecSpec>, seat: Seat) -> Self {
        ExecBot { spec, seat, running: None, decisions: 0 }
    }

    fn error(&self, reason: impl Into<String>) -> BotError {
        BotError { bot: format!("exec:{}", self.spec.command), seat: self.seat, reason: reason.into() }
    }

    fn start<G: StateJson>(&mut self, game: &G, state: &G::State, rng: &mut Rng) -> Result<(), BotError> {
        let argv = &self.spec.argv;
        let mut command = Command::new(&argv[0]);
        command.args(&argv[1..]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        own_group(&mut command);
        // Started and listed as running under one lock: never taken for a leftover.
        let mut running = live();
        let mut child = command.spawn().map_err(|e| self.error(format!("cannot start `{}`: {e}", argv[0])))?;
        running.push(child.id());
        drop(running);
        let (Some(mut stdin), Some(stdout), Some(mut stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            end_group(&child);
            let _ = child.kill();
            let _ = child.wait();
            return Err(self.error("its standard input, output or error could not be opened"));
        };
        // What the bot writes to standard error is passed through by a thread, so that a
        // process it leaves behind holds a pipe of ours, never our standard error.
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut stderr, &mut std::io::stderr());
        });
        // A writer thread, so that a bot that does not read its input cannot block us:
        // each line's write is awaited no longer than the time limit.
        let (to_bot, lines) = sync_channel::<Vec<u8>>(1);
        let (report, written) = sync_channel(1);
        std::thread::spawn(move || {
            for line in lines {
                let result = stdin.write_all(&line).and_then(|()| stdin.flush());
                let failed = result.is_err();
                if report.send(result).is_err() || failed {
                    break;
                }
            }
        });
        // A reader thread turns the output into lines, so that a silent bot can be timed
        // out; it ends when the process closes its output.
        let (tx, answers) = sync_channel(1);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match (&mut reader).take(MAX_REPLY as u64 + 1).read_until(b'\n', &mut line) {
                    Ok(0) => break,
                    Ok(_) if line.len() > MAX_REPLY => {
                        let _ = tx.send(Err(format!("answered a line longer than {MAX_REPLY} bytes")));
                        break;
                    }
                    Ok(_) => {
                        let sent = match String::from_utf8(line) {
                            Ok(text) => tx.send(Ok(text)),
                            Err(_) => tx.send(Err("answered a line that is not UTF-8 text".into())),
                        };
                        if sent.is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(format!("cannot read its answer: {e}")));
                        break;
                    }
                }
            }
        });
        self.running = Some(Running { child, to_bot: Some(to_bot), written, answers });
        let hello = serde_json::json!({
            "type": "start",
            "game": game.game_id(),
            "players": game.player_count(state),
            "seat": self.seat,
            // One way from the bots' generator: it reveals neither that generator (the
            // built-in bots' choices) nor the game's.
            "seed": crate::rng::derive_seed("rulesmith exec bot", &[rng.next_u64(), u64::from(self.seat)]),
        });
        self.send(&hello)
    }

    /// Writes one message, waiting no longer than the time limit for the bot to take it.
    fn send(&mut self, message: &serde_json::Value) -> Result<(), BotError> {
        let limit = self.spec.time_limit;
        let Some(run) = self.running.as_mut() else { return Err(self.error("it is not running")) };
        let queued = run.to_bot.as_ref().is_some_and(|w| w.send(format!("{message}\n").into_bytes()).is_ok());
        let failure = match queued.then(|| run.written.recv_timeout(limit)) {
            Some(Ok(Ok(()))) => return Ok(()),
            Some(Err(RecvTimeoutError::Timeout)) => {
                run.stop();
                format!(
                    "did not read its input within {:.1} s (the time limit per decision); a bot must read every \
                     message it is sent, and was stopped",
                    limit.as_secs_f64()
                )
            }
            _ => format!("it exited ({}) before the game was over", run.stop()),
        };
        self.running = None;
        Err(self.error(failure))
    }

    fn answer(&mut self) -> Result<String, BotError> {
        let limit = self.spec.time_limit;
        let Some(run) = self.running.as_mut() else { return Err(self.error("it is not running")) };
        let started = Instant::now();
        let got = run.answers.recv_timeout(limit);
        let failure = match got {
            Ok(Ok(line)) => return Ok(line),
            Ok(Err(why)) => why,
            Err(RecvTimeoutError::Timeout) => {
                format!("gave no answer within {:.1} s (the time limit per decision)", started.elapsed().as_secs_f64())
            }
            Err(RecvTimeoutError::Disconnected) => {
                let how = run.stop();
                self.running = None;
                return Err(self.error(format!("exited ({how}) without answering")));
            }
        };
        if let Some(mut run) = self.running.take() {
            run.stop();
        }
        Err(self.error(failure))
    }
}

/// What a bot's answer line says: an action in notation, or an index into `legal`.
#[derive(Debug)]
enum Reply {
    Text(String),
    Index(u64),
}

fn read_reply(line: &str) -> Result<Reply, String> {
    let line = line.trim();
    if line.starts_with('{') || line.starts_with('"') {
        let v: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| format!("answered `{}`, which is not valid JSON: {e}", clip(line)))?;
        return match v {
            serde_json::Value::String(s) => Ok(Reply::Text(s)),
            serde_json::Value::Object(m) => match (m.get("action"), m.get("index")) {
                (Some(serde_json::Value::String(s)), None) => Ok(Reply::Text(s.clone())),
                (None, Some(i)) => i
                    .as_u64()
                    .map(Reply::Index)
                    .ok_or_else(|| format!("answered `{}`: `index` must be a whole number from 0", clip(line))),
                _ => Err(format!("answered `{}`: expected {{\"action\": \"…\"}} or {{\"index\": N}}", clip(line))),
            },
            _ => Err(format!("answered `{}`: expected an action in notation", clip(line))),
        };
    }
    if line.is_empty() {
        return Err("answered an empty line".into());
    }
    Ok(Reply::Text(line.to_string()))
}

/// A bot's text, shortened for a message.
fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(80).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

impl<G: StateJson> Bot<G> for ExecBot {
    fn name(&self) -> String {
        format!("exec:{}", self.spec.command)
    }

    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        legal: &[G::Action],
        rng: &mut Rng,
    ) -> Result<G::Action, BotError> {
        if self.running.is_none() {
            if self.decisions > 0 {
                return Err(self.error("it stopped earlier in this game"));
            }
            self.start(game, state, rng)?;
        }
        self.decisions += 1;
        let names: Vec<String> = legal.iter().map(|&a| game.format_action(state, a)).collect();
        let seat = match game.to_move(state) {
            ToMove::Seat(s) => s,
            ToMove::Terminal => self.seat,
        };
        let message = serde_json::json!({
            "type": "decide",
            "seat": seat,
            "decision": self.decisions - 1,
            "view": game.view_to_json(state, seat),
            "legal": names,
        });
        self.send(&message)?;
        let line = self.answer()?;
        let chosen = match read_reply(&line).map_err(|e| self.error(e))? {
            Reply::Index(i) => usize::try_from(i).ok().and_then(|i| legal.get(i).copied()).ok_or_else(|| {
                self.error(format!(
                    "answered index {i}, but there are {} legal actions (0 to {})",
                    legal.len(),
                    legal.len() - 1
                ))
            })?,
            Reply::Text(text) => match names.iter().position(|n| *n == text.trim()) {
                Some(i) => legal[i],
                None => match game.parse_action(state, &text) {
                    Ok(a) if legal.contains(&a) => a,
                    _ => {
                        let shown: Vec<&str> = names.iter().take(12).map(String::as_str).collect();
                        let more = if names.len() > 12 { ", …" } else { "" };
                        return Err(self.error(format!(
                            "answered `{}`, which is not a legal action now (legal: {}{more})",
                            clip(text.trim()),
                            shown.join(", ")
                        )));
                    }
                },
            },
        };
        Ok(chosen)
    }

    fn game_over(&mut self, game: &G, state: &G::State) {
        if self.running.is_none() {
            return;
        }
        let result = game
            .outcome(state)
            .map(|o| serde_json::json!({"type": "end", "scores": o.scores, "ranks": o.ranks, "end": o.end}));
        if let Some(message) = result {
            let _ = self.send(&message);
        }
        if let Some(mut run) = self.running.take() {
            // Give the bot a moment to exit by itself once its input closes.
            run.to_bot = None;
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = run.child.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            run.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell() {
        let e = ExecSpec::parse(" python3 'my bot.py' --depth 2 ").unwrap();
        assert_eq!(e.argv, ["python3", "my bot.py", "--depth", "2"]);
        assert_eq!(e.command(), "python3 'my bot.py' --depth 2");
        assert!(ExecSpec::parse("").unwrap_err().contains("name a program"));
        assert!(ExecSpec::parse("bot 'open").unwrap_err().contains("unclosed quote"));
    }

    #[test]
    fn replies_read_in_each_form() {
        assert!(matches!(read_reply("settler\n"), Ok(Reply::Text(t)) if t == "settler"));
        assert!(matches!(read_reply("\"ship corn on 5\""), Ok(Reply::Text(t)) if t == "ship corn on 5"));
        assert!(matches!(read_reply("{\"action\": \"pass\"}"), Ok(Reply::Text(t)) if t == "pass"));
        assert!(matches!(read_reply("{\"index\": 3}"), Ok(Reply::Index(3))));
        assert!(read_reply("{\"index\": -1}").unwrap_err().contains("whole number"));
        assert!(read_reply("{\"move\": 1}").unwrap_err().contains("expected"));
        assert!(read_reply("{oops").unwrap_err().contains("not valid JSON"));
        assert!(read_reply("  ").unwrap_err().contains("empty line"));
    }
}
