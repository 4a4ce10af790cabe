//! `completions` and `man`: shell completions and man pages generated from the same clap
//! definitions as `--help`, so they cannot drift from the options the binary takes.

use super::common::{Failure, bad, emit, say};
use std::path::Path;

/// Prints the completion script of `shell` for the command `cmd`: a script that asks the
/// installed command itself for each completion (`COMPLETE=SHELL rulesmith -- WORDS…`), so
/// that a RULESET offers the bundled rulesets' names as well as files, as static scripts
/// cannot.
pub fn completions(shell: clap_complete::Shell, cmd: clap::Command) -> Result<u8, Failure> {
    use clap_complete::env::{Bash, Elvish, EnvCompleter, Fish, Powershell, Zsh};
    let registration: &dyn EnvCompleter = match shell {
        clap_complete::Shell::Bash => &Bash,
        clap_complete::Shell::Elvish => &Elvish,
        clap_complete::Shell::Fish => &Fish,
        clap_complete::Shell::PowerShell => &Powershell,
        clap_complete::Shell::Zsh => &Zsh,
        other => return Err(bad(format!("completions for {other} are not supported"))),
    };
    let name = cmd.get_name().to_string();
    let mut script = Vec::new();
    registration
        .write_registration("COMPLETE", &name, &name, &name, &mut script)
        .map_err(|e| bad(format!("cannot write the completion script: {e}")))?;
    emit(&String::from_utf8_lossy(&script));
    Ok(0)
}

/// Prints the man page of `cmd` as roff, or with `out` writes one page per command
/// (`rulesmith.1`, `rulesmith-simulate.1`, …) into that folder.
pub fn man(cmd: clap::Command, out: Option<&Path>) -> Result<u8, Failure> {
    let Some(dir) = out else {
        let mut page = Vec::new();
        clap_mangen::Man::new(cmd).render(&mut page).map_err(|e| bad(format!("cannot render the man page: {e}")))?;
        emit(&String::from_utf8_lossy(&page));
        return Ok(0);
    };
    let shown = dir.display();
    std::fs::create_dir_all(dir).map_err(|e| bad(format!("--out {shown}: cannot create the folder: {e}")))?;
    clap_mangen::generate_to(cmd.clone(), dir)
        .map_err(|e| bad(format!("--out {shown}: cannot write the man pages: {e}")))?;
    let pages = 1 + cmd.get_subcommands().filter(|c| !c.is_hide_set() && c.get_name() != "help").count();
    say(format!("wrote {pages} man pages to {shown} (man {shown}/rulesmith.1)"));
    Ok(0)
}
