//! The documentation, executed, so that it cannot go stale:
//! - every ```console example of the book's pages (`docs/`, `docs/cli.md` included) runs and
//!   its output is compared (trycmd);
//! - every `cargo run --release -- …` line of the README's and the book's ```sh blocks runs
//!   and succeeds;
//! - the book's table of contents lists every page, and the README reaches each kind of
//!   user's first command early and keeps its history in the changelog;
//! - the files made for those examples (`tests/fixtures/docs/`) are what the binary writes today;
//! - the minimum Rust version stated in `Cargo.toml` and the README is the one the whole
//!   workspace, tests included, needs.
//!
//! After changing a command's output: `TRYCMD=overwrite cargo test --test it docs::` rewrites the
//! examples and fixtures; review the diff.

// Tests may unwrap and panic, helpers included.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_rulesmith");

use crate::{python3_available, root};

/// The book's pages: the Markdown files under `docs/`, sorted.
fn book_pages() -> Vec<PathBuf> {
    let mut pages = Vec::new();
    let mut stack = vec![root().join("docs")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
}

#[test]
fn book_examples() {
    // A Markdown case runs in the test's working directory, the repository root.
    let cases = trycmd::TestCases::new();
    cases.register_bin("rulesmith", Path::new(BIN));
    let mut registered = 0;
    let mut python = None;
    for page in book_pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        if !text.contains("```console") {
            continue;
        }
        let relative = page.strip_prefix(root()).unwrap();
        // A page whose examples run a Python bot program needs python3.
        if text.contains("exec:python3") && !*python.get_or_insert_with(python3_available) {
            eprintln!("{}: examples skipped: they run `python3`", relative.display());
            registered += 1;
            continue;
        }
        cases.case(relative);
        registered += 1;
    }
    assert!(registered >= 3, "only {registered} pages of the book have examples");
}

/// The README and the book show commands as a reader types them in a clone:
/// `cargo run --release -- ARGS`. Each runs here as the test build of the same binary with
/// the same ARGS, through `sh`, so globs and `# comments` mean what they mean to the reader.
#[test]
fn readme_and_book_commands_run() {
    let mut files = vec![root().join("README.md")];
    files.extend(book_pages());
    let mut ran = 0;
    for file in files {
        let name = file.strip_prefix(root()).unwrap().display().to_string();
        ran += run_sh_commands(&name, &std::fs::read_to_string(&file).unwrap());
    }
    // The README's quick starts, the book's house-rule tools and designer commands.
    assert!(ran >= 12, "only {ran} commands found in the README and the book");
}

/// Runs the `cargo run --release -- …` lines of a page's ```sh blocks; returns how many ran.
fn run_sh_commands(name: &str, page: &str) -> usize {
    let mut in_sh = false;
    let mut ran = 0;
    for (n, line) in page.lines().enumerate() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        if !in_sh || !line.starts_with("cargo run") {
            continue;
        }
        let where_ = format!("{name}:{}: {line}", n + 1);
        if line.contains("python3") && !python3_available() {
            eprintln!("{where_}: skipped: python3 is not on the PATH");
            continue;
        }
        let args = line
            .strip_prefix("cargo run --release -- ")
            .unwrap_or_else(|| panic!("{where_}: not of the form `cargo run --release -- ARGS`"));
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("\"$RULESMITH\" {args}"))
            .env("RULESMITH", BIN)
            .current_dir(root())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && !stdout.trim().is_empty(),
            "{where_}\nexit: {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
            out.status.code()
        );
        ran += 1;
    }
    ran
}

/// Every page under `docs/` is in the book's table of contents (`docs/SUMMARY.md`), and
/// every entry there is a page: no page is left out of the built book.
#[test]
fn book_summary_lists_every_page() {
    let summary = std::fs::read_to_string(root().join("docs/SUMMARY.md")).unwrap();
    let listed: Vec<&str> = summary
        .lines()
        .filter_map(|l| l.split_once("](").and_then(|(_, rest)| rest.split_once(')')).map(|(link, _)| link))
        .collect();
    for link in &listed {
        assert!(root().join("docs").join(link).is_file(), "docs/SUMMARY.md lists {link}, which is not a file");
    }
    for page in book_pages() {
        let relative = page.strip_prefix(root().join("docs")).unwrap().to_str().unwrap().to_string();
        assert!(
            relative == "SUMMARY.md" || listed.contains(&relative.as_str()),
            "docs/{relative} is not in docs/SUMMARY.md: the book would leave it out"
        );
    }
}

/// The README is a front page: each kind of user finds a first command within its first 100
/// lines, it stays short, and the history (experiments, "issue N") lives in the changelog
/// and the book.
#[test]
fn readme_is_a_front_page() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines: Vec<&str> = readme.lines().collect();
    assert_eq!(lines[2], "```sh", "the README opens with the two commands");
    assert!(lines[3].starts_with("cargo run --release -- simulate puerto-rico "), "{}", lines[3]);
    assert!(lines[4].starts_with("cargo test --workspace "), "{}", lines[4]);
    let head = lines[..100.min(lines.len())].join("\n");
    for (user, first) in [
        ("designer", "-- compare "),
        ("designer", "-- validate "),
        ("designer", "-- sweep "),
        ("rules lawyer", "-- run tests/scenarios"),
        ("playtester", "-- play "),
        ("playtester", "-- serve"),
        ("researcher", "-- tournament "),
        ("researcher", "exec:"),
        ("researcher", "pip install"),
        ("researcher", "import rulesmith"),
    ] {
        assert!(head.contains(first), "the {user}'s `{first}` is not in the README's first 100 lines");
    }
    assert!(lines.len() <= 250, "the README has {} lines: move detail into the book", lines.len());
    for (n, line) in lines.iter().enumerate() {
        let lower = line.to_lowercase();
        let history = lower
            .match_indices("issue ")
            .any(|(at, m)| lower[at + m.len()..].starts_with(|c: char| c.is_ascii_digit()));
        assert!(!history, "README.md:{}: history belongs in CHANGELOG.md: {line}", n + 1);
    }
}

/// Runs the binary from the repository root; it must succeed.
fn rulesmith(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).current_dir(root()).output().unwrap();
    assert!(out.status.success(), "rulesmith {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Compares a fixture with what the binary writes now (`TRYCMD=overwrite` rewrites it).
fn assert_fixture(name: &str, actual: String) {
    let path = root().join("tests/fixtures/docs").join(name);
    snapbox::Assert::new()
        .action_env("TRYCMD")
        .eq(snapbox::Data::text(actual), snapbox::Data::read_from(&path, Some(snapbox::data::DataFormat::Text)));
}

/// The shard reports and the record the `merge` and `replay` examples read.
#[test]
fn docs_fixtures_are_current() {
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let json = rulesmith(&["simulate", "puerto-rico", "--games", "20", "--shard", &shard, "--format", "json"]);
        // Timings vary from run to run: the fixtures hold zeros.
        let mut report: serde_json::Value = serde_json::from_str(&json).unwrap();
        for timing in ["seconds", "games_per_second"] {
            let value = report.get_mut(timing).unwrap_or_else(|| panic!("no `{timing}` in {json}"));
            *value = serde_json::json!(0.0);
        }
        let text = serde_json::to_string_pretty(&report).unwrap() + "\n";
        assert_fixture(&format!("shard-{k}.json"), text);
    }

    let record = scratch("games.jsonl");
    rulesmith(&["simulate", "puerto-rico", "--games", "3", "--record", record.to_str().unwrap()]);
    assert_fixture("games.jsonl", std::fs::read_to_string(&record).unwrap());
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulesmith-docs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `1.88` or `1.88.0` as comparable numbers.
fn version(text: &str) -> Vec<u64> {
    let mut parts: Vec<u64> = text.split('.').map(|p| p.parse().unwrap()).collect();
    parts.resize(3, 0);
    parts
}

/// The stated minimum Rust version is the newest `rust-version` any package of the build
/// declares (dependencies and dev-dependencies, every platform), or the edition's own
/// minimum if that is newer; `Cargo.toml` and the README state the same one.
///
/// Only one toolchain is at hand, so the dependencies' declarations stand in for building
/// with the old compiler; `clippy::incompatible_msrv` checks our own use of the standard
/// library against the same `rust-version`.
#[test]
fn stated_rust_version_is_the_true_minimum() {
    let manifest: toml::Table = toml::from_str(&std::fs::read_to_string(root().join("Cargo.toml")).unwrap()).unwrap();
    let package = &manifest["workspace"]["package"];
    let stated = package["rust-version"].as_str().unwrap();
    let edition = package["edition"].as_str().unwrap();
    let edition_needs = match edition {
        "2024" => "1.85",
        "2021" => "1.56",
        other => panic!("edition {other}: add its minimum Rust version here"),
    };

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let members: Vec<&str> =
        metadata["workspace_members"].as_array().unwrap().iter().map(|id| id.as_str().unwrap()).collect();

    let mut needed = (version(edition_needs), format!("edition {edition}"));
    for package in metadata["packages"].as_array().unwrap() {
        let name = package["name"].as_str().unwrap();
        let declared = package["rust_version"].as_str();
        if members.contains(&package["id"].as_str().unwrap()) {
            assert_eq!(declared, Some(stated), "{name}: use `rust-version.workspace = true`");
        } else if let Some(declared) = declared
            && version(declared) > needed.0
        {
            needed = (version(declared), format!("{name} {}", package["version"]));
        }
    }
    assert_eq!(
        version(stated),
        needed.0,
        "Cargo.toml states rust-version {stated}; the build needs {:?} ({})",
        needed.0,
        needed.1
    );

    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("Rust toolchain ({stated} or newer")),
        "the README must state the minimum Rust version {stated}"
    );
}
