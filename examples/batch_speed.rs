//! Speed of the batched env's core (`rulesmith_core::batch`, what `rulesmith.vector.VectorEnv`
//! steps) without Python: N random games of a ruleset stepped together, a uniformly random
//! legal id per env drawn in Rust (as `VectorEnv.sample_actions` draws it), until G games
//! have finished. Prints games per CPU second (the process's user + system time). A fixed
//! workload for `valgrind --tool=callgrind` too.
//!
//! `cargo run --release --example batch_speed -- [GAMES] [N] [RULESET] [PLAYERS]`
//! (defaults: 3000 games, 64 envs, puerto-rico, 4 players).

use rulesmith::core::Rng;
use rulesmith::core::batch::{Batch, BatchOptions};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (games, n, players) = (arg(0, 3000), arg(1, 64), arg(3, 4));
    let ruleset = args.get(2).map_or("puerto-rico", String::as_str);
    let r = match rulesmith::load(ruleset) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let opts = BatchOptions { players, num_envs: n, seed: 1, threads: 1, ..BatchOptions::default() };
    let mut batch = match Batch::new(&*r.game, opts, None) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let cpu = cpu_seconds();
    let start = Instant::now();
    if let Err(e) = batch.reset(None) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let mut rng = Rng::from_seed(1);
    let mut actions = vec![0u32; n];
    let (mut finished, mut decisions) = (0usize, 0usize);
    // A digest of every observation, mask and reward, so that two builds can be compared.
    let mut digest = 0u64;
    while finished < games {
        for (k, a) in actions.iter_mut().enumerate() {
            let ids = batch.legal_ids(k).unwrap_or(&[]);
            *a = ids.get(rng.index(ids.len().max(1))).copied().unwrap_or(0);
        }
        if let Err(e) = batch.step(&actions) {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
        decisions += n;
        let b = batch.buffers();
        finished += b.terminated.iter().filter(|&&t| t != 0).count();
        if std::env::var_os("BATCH_DIGEST").is_some() {
            for x in b.obs.iter().chain(&b.reward).chain(&b.final_obs) {
                digest = (digest ^ u64::from(x.to_bits())).wrapping_mul(0x100_0000_01b3);
            }
            for &x in &b.mask {
                digest = (digest ^ u64::from(x)).wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    let (wall, cpu) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu);
    println!(
        "{ruleset}, {players} players, {n} envs: {finished} games, {decisions} decisions in {wall:.2} s; \
         CPU {cpu:.2} s: {:.0} games per CPU second, {:.0} ns of CPU a decision; digest {digest:016x}",
        finished as f64 / cpu,
        1e9 * cpu / decisions as f64
    );
    ExitCode::SUCCESS
}

/// The process's CPU time (user + system), in seconds, from `/proc/self/stat` (Linux); 0
/// where it cannot be read.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    let Some(rest) = stat.rsplit_once(')').map(|x| x.1) else { return 0.0 };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11..13).map_or(0.0, |f| f.iter().filter_map(|x| x.parse::<f64>().ok()).sum());
    ticks / 100.0
}
