"""Python's ``compare``, ``sweep`` and ``tune`` return exactly the JSON that
``rulesmith compare|sweep|tune --format json`` prints for the same arguments (issue 44):
both are the library's one report, serialized once."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import rulesmith

REPO = Path(__file__).resolve().parents[3]
HOUSE = REPO / "rulesets" / "house-rules" / "puerto-rico-no-hacienda.toml"

# The only fields that may differ between two runs of the same study: how long each
# ruleset's games took, measured on the clock. Everything else must be equal.
TIMINGS = ("seconds", "games_per_second")


def cli_binary():
    """The `rulesmith` binary built from this tree (.ci/python sets RULESMITH_BIN)."""
    given = os.environ.get("RULESMITH_BIN")
    if given:
        return given
    for profile in ("release", "debug"):
        path = REPO / "target" / profile / "rulesmith"
        if path.exists():
            return str(path)
    return shutil.which("rulesmith")


def untimed(value):
    """The report without the clock's fields (at any depth: every ruleset's and value's report)."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


def cli_json(*args):
    binary = cli_binary()
    if binary is None:
        pytest.skip("no rulesmith binary: build it (cargo build --release) or set RULESMITH_BIN")
    out = subprocess.run([binary, *args, "--format", "json"], capture_output=True, text=True, check=True, cwd=REPO)
    return json.loads(out.stdout)


def test_compare_is_the_commands_json():
    args = ["puerto-rico", str(HOUSE)]
    cli = cli_json("compare", *args, "--games", "12", "--players", "3", "--seed", "7")
    py = rulesmith.compare(args, games=12, players=3, seed=7)
    assert untimed(py) == untimed(cli)
    # All of it: the paired differences and the power a researcher needs are there.
    assert set(py) >= {"differences", "power", "rulesets", "bots", "rotate_seats", "identical", "overrides"}
    assert py["differences"]["rulesets"][0]["figures"]


def test_compare_with_a_check_is_the_commands_json():
    args = ["puerto-rico", str(HOUSE)]
    cli = cli_json("compare", *args, "--games", "8", "--players", "2", "--check-with", "random", "--check-games", "6")
    py = rulesmith.compare(args, games=8, players=2, check_with="random", check_games=6)
    assert untimed(py) == untimed(cli)
    assert py["check"]["bots"] == ["random", "random"] and py["check"]["games"] == 6


def test_sweep_is_the_commands_json():
    cli = cli_json("sweep", "puerto-rico", "--vary", "buildings.harbor.cost=7,9", "--games", "6", "--players", "3")
    py = rulesmith.sweep("puerto-rico", ["buildings.harbor.cost=7,9"], games=6, players=3)
    assert untimed(py) == untimed(cli)
    assert py["kind"] == "sweep" and len(py["points"]) == 3


def test_tune_is_the_commands_json():
    target = "seat 0 win share=30%"
    cli = cli_json("tune", "puerto-rico", "--vary", "buildings.harbor.cost=6..9", "--target", target, "--games", "4", "--players", "2")
    py = rulesmith.tune("puerto-rico", "buildings.harbor.cost=6..9", target, games=4, players=2)
    assert untimed(py) == untimed(cli)
    assert py["answer"]["text"] in {"6", "7", "8", "9"}


def test_bad_arguments_are_refused_as_the_command_refuses_them():
    with pytest.raises(ValueError, match="--vary"):
        rulesmith.sweep("puerto-rico", ["buildings.harbor.cost"], games=2)
    with pytest.raises(ValueError, match="--check-games needs --check-with"):
        rulesmith.compare(["puerto-rico", str(HOUSE)], games=2, check_games=3)
    with pytest.raises(ValueError, match="--target"):
        rulesmith.tune("puerto-rico", "buildings.harbor.cost=6..9", "nonsense", games=2)
