//! The documentation, executed, so that it cannot go stale:
//! - every ```console example of `docs/cli.md` runs and its output is compared (trycmd);
//! - every `cargo run --release -- …` line of the README's ```sh blocks runs and succeeds;
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

use crate::root;

#[test]
fn cli_md_examples() {
    // A Markdown case runs in the test's working directory, the repository root.
    trycmd::TestCases::new().register_bin("rulesmith", Path::new(BIN)).case("docs/cli.md");
}

/// The README shows commands as a reader types them in a clone: `cargo run --release -- ARGS`.
/// Each runs here as the test build of the same binary with the same ARGS, through `sh`, so
/// globs and `# comments` mean what they mean to the reader.
#[test]
fn readme_commands_run() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut in_sh = false;
    let mut ran = 0;
    for (n, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        if !in_sh || !line.starts_with("cargo run") {
            continue;
        }
        let where_ = format!("README.md:{}: {line}", n + 1);
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
    // The quick start, the house-rule tools and the scenario tools.
    assert!(ran >= 7, "only {ran} README commands found");
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
