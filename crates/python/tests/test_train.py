"""The reference learner (rulesmith.train): reproducible, saved and loaded, and it learns."""

import numpy as np
import pytest

from rulesmith.train import Policy, evaluate, main, train

# Learner decisions for the learning test: about 6 CPU seconds with a release build (63
# with a debug one); the policy won 86% of 100 games against two random players (0.78-0.91).
STEPS = 120_000


def test_training_is_seeded_and_a_policy_saves_and_loads(tmp_path):
    one = train("puerto-rico", 3, "random", steps=800, seed=4, num_envs=6, rollout=16)
    two = train("puerto-rico", 3, "random", steps=800, seed=4, num_envs=6, rollout=16)
    for k, v in one.params.items():
        assert np.array_equal(v, two.params[k]), k
    path = tmp_path / "policy.npz"
    one.save(str(path))
    back = Policy.load(str(path))
    assert back.meta == {"ruleset": "puerto-rico", "players": 3, "seat_relative": True, "hidden": 128}
    obs = np.random.default_rng(0).standard_normal((5, one.params["w1"].shape[0])).astype(np.float32)
    mask = np.ones((5, one.params["wp"].shape[1]), bool)
    for a, b in zip(one.forward(obs, mask)[:2], back.forward(obs, mask)[:2]):
        assert np.array_equal(a, b)
    # The same policy and seed evaluate to the same games.
    assert evaluate(one, opponents="random", games=6) == evaluate(back, opponents="random", games=6)


def test_a_trained_policy_beats_two_random_players():
    policy = train("puerto-rico", 3, "random", steps=STEPS, seed=1)
    out = evaluate(policy, opponents="random", games=100)
    lo, hi = out["interval"]
    # Random play wins a third of 3-player games; the learner wins most.
    assert out["win_share"] >= 0.6 and lo > 1 / 3, out


def test_the_command_line_trains_saves_and_evaluates(tmp_path, capsys):
    path = tmp_path / "p.npz"
    assert main(["--steps", "600", "--num-envs", "6", "--games", "6", "--eval-opponents", "random", "--out", str(path)]) == 0
    assert path.exists()
    assert "seat-rotated games against random" in capsys.readouterr().out
    assert main(["--evaluate", str(path), "--eval-opponents", "random", "--games", "3"]) == 0
    with pytest.raises(SystemExit):
        main(["--reward", "wins"])
