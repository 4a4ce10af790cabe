"""The batched environment (rulesmith.vector): shapes, agreement with single games, seeds,
threads, errors and the Gymnasium vector wrapper."""

import numpy as np
import pytest

import rulesmith
from rulesmith import Ruleset, game_seed
from rulesmith._episodes import win_share
from rulesmith.vector import Batch, PolicyRng, VectorEnv, random_actions


def _batches(env, steps, rng_seed=0):
    rng = np.random.default_rng(rng_seed)
    b = env.reset()
    # Copies: each step overwrites the batch's arrays.
    out = [Batch(*(x.copy() for x in b))]
    for _ in range(steps):
        b = env.step(random_actions(b.action_mask, rng))
        out.append(Batch(*(x.copy() for x in b)))
    return out


def test_shapes_and_dtypes():
    env = VectorEnv("puerto-rico", players=4, num_envs=5, seed=3)
    b = env.reset()
    n, o, a = 5, env.observation_len, env.action_count
    assert (b.observation.shape, b.observation.dtype) == ((n, o), np.float32)
    assert (b.action_mask.shape, b.action_mask.dtype) == ((n, a), np.bool_)
    assert (b.to_move.shape, b.to_move.dtype) == ((n,), np.int64)
    assert (b.reward.shape, b.reward.dtype) == ((n, 4), np.float32)
    assert (b.terminated.shape, b.terminated.dtype) == ((n,), np.bool_)
    assert (b.final_observation.shape, b.final_observation.dtype) == ((n, o), np.float32)
    probe = Ruleset("puerto-rico").new_game(4, 1)
    assert (o, a) == (probe.observation_len, probe.action_count)


@pytest.mark.parametrize("name", ["puerto-rico", "puerto-rico-expansion", "santiago-de-cuba"])
def test_every_row_is_the_single_game_of_its_seed(name):
    """Each env replays, with plain `Game`s, games k, k+N, … of the run: masks are the legal ids,
    observations the mover's, rewards the win shares, and a finished game restarts at once."""
    n, seed, players = 3, 11, 4 if name == "puerto-rico" else 3
    env = VectorEnv(name, players=players, num_envs=n, seed=seed)
    r = Ruleset(name)
    games = [r.new_game(players, game_seed(seed, k)) for k in range(n)]
    episodes = [0] * n
    rng = np.random.default_rng(5)
    b = env.reset()
    ended = 0
    for _ in range(1200):
        for k, g in enumerate(games):
            ids = np.flatnonzero(b.action_mask[k])
            assert list(ids) == sorted(g.legal_ids()), k
            assert b.to_move[k] == g.to_move
            assert np.array_equal(b.observation[k], np.frombuffer(g.observation(g.to_move), np.float32))
            assert env.game_seed(k) == g.seed
        actions = random_actions(b.action_mask, rng)
        movers = [g.to_move for g in games]
        b = env.step(actions)
        for k, g in enumerate(games):
            g.play_id(int(actions[k]))
            if g.to_move is None:
                assert b.terminated[k]
                out = g.outcome()
                assert list(b.reward[k]) == pytest.approx([win_share(out, s) for s in range(players)])
                final = np.frombuffer(g.observation(movers[k]), np.float32)
                assert np.array_equal(b.final_observation[k], final)
                episodes[k] += 1
                ended += 1
                games[k] = r.new_game(players, game_seed(seed, k + episodes[k] * n))
            else:
                assert not b.terminated[k] and not b.reward[k].any() and not b.final_observation[k].any()
    assert ended >= n, "every env finished a game"


def test_seeds_reproduce_and_reset_restarts_the_run():
    one = _batches(VectorEnv("puerto-rico", players=4, num_envs=4, seed=7), 300)
    two = _batches(VectorEnv("puerto-rico", players=4, num_envs=4, seed=7), 300)
    for x, y in zip(one, two):
        for a, b in zip(x, y):
            assert np.array_equal(a, b)
    env = VectorEnv("puerto-rico", players=4, num_envs=4, seed=1)
    first = env.reset(seed=7)
    assert env.seed == 7 and np.array_equal(first.observation, one[0].observation)
    # Without a seed, a reset starts each env's next game: env k's game k + N, then k + 2N.
    env.step(random_actions(first.action_mask, np.random.default_rng(0)))
    env.reset()
    assert [env.game_seed(k) for k in range(4)] == [game_seed(7, k + 4) for k in range(4)]
    env.reset()
    assert [env.game_seed(k) for k in range(4)] == [game_seed(7, k + 8) for k in range(4)]
    # The first reset without a seed plays each env's first game.
    fresh = VectorEnv("puerto-rico", players=4, num_envs=4, seed=7)
    assert np.array_equal(fresh.reset().observation, one[0].observation) and fresh.game_seed(3) == game_seed(7, 3)
    other = VectorEnv("puerto-rico", players=4, num_envs=4, seed=8).reset()
    assert not np.array_equal(other.observation, first.observation)


def test_batches_are_fresh_arrays_by_default():
    env = VectorEnv("puerto-rico", players=4, num_envs=3, seed=1)
    b = env.reset()
    first = b.observation.copy()
    again = env.step(random_actions(b.action_mask, np.random.default_rng(0)))
    assert again is not b and np.array_equal(b.observation, first)
    assert not np.shares_memory(b.observation, again.observation)


def test_batches_are_read_only_views_overwritten_in_place():
    env = VectorEnv("puerto-rico", players=4, num_envs=3, seed=1, copy=False)
    b = env.reset()
    first = b.observation.copy()
    assert not b.observation.flags.writeable and not b.action_mask.flags.writeable
    with pytest.raises(ValueError):
        b.observation[0, 0] = 1.0
    again = env.step(random_actions(b.action_mask, np.random.default_rng(0)))
    assert again is b and not np.array_equal(b.observation, first)
    # The arrays keep the env's memory alive.
    obs = b.observation
    del env, b, again
    import gc

    gc.collect()
    assert obs.shape[0] == 3 and np.isfinite(obs).all()


def test_threads_give_the_same_batches_as_one_thread():
    single = _batches(VectorEnv("puerto-rico", players=4, num_envs=7, seed=2), 900)
    env = VectorEnv("puerto-rico", players=4, num_envs=7, seed=2, num_threads=3)
    assert env.num_threads == 3
    threaded = _batches(env, 900)
    assert sum(int(b.terminated.sum()) for b in single) >= 7
    for x, y in zip(single, threaded):
        for a, b in zip(x, y):
            assert np.array_equal(a, b)


def test_an_illegal_id_raises_naming_the_env_and_plays_nothing():
    env = VectorEnv("puerto-rico", players=4, num_envs=3, seed=1)
    b = env.reset()
    actions = random_actions(b.action_mask, np.random.default_rng(0))
    bad = int(np.flatnonzero(b.action_mask[2] == 0)[0])
    actions[2] = bad
    with pytest.raises(ValueError, match=rf"env 2: action id {bad} is not legal"):
        env.step(actions)
    # Nothing was played: the next step is that of a twin env that never saw the bad id.
    actions[2] = int(np.flatnonzero(b.action_mask[2])[0])
    twin = VectorEnv("puerto-rico", players=4, num_envs=3, seed=1)
    twin.reset()
    for x, y in zip(env.step(actions), twin.step(actions)):
        assert np.array_equal(x, y)
    with pytest.raises(ValueError, match="env 1: action id 99999"):
        env.step([0, 99999, 0])
    with pytest.raises(ValueError, match="3 integer action ids"):
        env.step([0, 1])
    with pytest.raises(ValueError, match="integer"):
        env.step([0.5, 1.0, 2.0])
    with pytest.raises(ValueError, match="num_envs=0"):
        VectorEnv("puerto-rico", players=4, num_envs=0)
    with pytest.raises(ValueError, match="num_threads=0"):
        VectorEnv("puerto-rico", players=4, num_envs=2, num_threads=0)
    with pytest.raises(ValueError, match="num_envs=65536: its batches would take"):
        VectorEnv("puerto-rico-expansion", players=4, num_envs=65536)
    with pytest.raises(ValueError, match=r"players=7 is not supported by `puerto-rico`"):
        VectorEnv("puerto-rico", players=7, num_envs=2)


def test_gymnasium_vector_wrapper_plays_the_single_env_games():
    gym = pytest.importorskip("gymnasium")
    from rulesmith.gym import RulesmithGymEnv
    from rulesmith.vector import RulesmithVectorEnv

    envs = RulesmithVectorEnv("puerto-rico", players=3, num_envs=2, seat=1, opponents="random", seed=4)
    assert isinstance(envs, gym.vector.VectorEnv)
    assert envs.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP
    obs, info = envs.reset(seed=4)
    assert envs.observation_space.contains(obs)
    # Env 0 plays game 0 of run 4: the game `RulesmithGymEnv.reset(seed=4)` starts, with the same bots.
    single = RulesmithGymEnv("puerto-rico", players=3, seat=1, opponents="random")
    sobs, _ = single.reset(seed=4)
    rng = np.random.default_rng(1)
    for _ in range(2000):
        assert np.array_equal(obs["observation"][0], sobs["observation"])
        assert np.array_equal(obs["action_mask"][0], sobs["action_mask"])
        actions = random_actions(envs.action_masks().view(np.uint8), rng)
        assert envs.action_space.contains(actions)
        obs, reward, term, trunc, info = envs.step(actions)
        assert envs.observation_space.contains(obs) and reward.shape == (2,) and not trunc.any()
        sobs, sreward, sterm, _, sinfo = single.step(int(actions[0]))
        assert term[0] == sterm and reward[0] == sreward
        if sterm:
            assert info["_final_obs"][0]
            assert np.array_equal(info["final_obs"][0], sobs["observation"])
            break
    else:
        pytest.fail("the game did not end")
    with pytest.raises(ValueError, match=r"seat=3: not a seat at a 3-player table \(seats 0 to 2\)"):
        RulesmithVectorEnv("puerto-rico", players=3, seat=3)
    with pytest.raises(ValueError, match=r"opponents: seat 0: unknown bot `nobody`: expected `random`, `greedy`"):
        RulesmithVectorEnv("puerto-rico", players=3, seat=1, opponents="nobody")
    with pytest.raises(ValueError, match=r"opponents: 1 bots for 2 other seats: give one name"):
        RulesmithVectorEnv("puerto-rico", players=3, opponents=["random"])
    # Closed, it says so (Gymnasium's close closes the batch).
    envs.close()
    with pytest.raises(RuntimeError, match="this VectorEnv is closed"):
        envs.step(actions)


def test_sample_actions_draws_legal_ids_uniformly_from_the_policy_seed():
    env = VectorEnv("puerto-rico", players=4, num_envs=6, seed=3)
    with pytest.raises(RuntimeError, match=r"sample_actions\(\): reset\(\) was not called"):
        env.sample_actions(PolicyRng(1))
    b = env.reset()
    rng = PolicyRng(9)
    counts = np.zeros(b.action_mask.shape, np.int64)
    for _ in range(3000):
        ids = env.sample_actions(rng)
        assert ids.dtype == np.int64 and ids.shape == (6,)
        counts[np.arange(6), ids] += 1
    # Only legal ids, every one of them, about equally often (the batch did not change).
    assert not counts[b.action_mask == 0].any()
    for row, mask in zip(counts, b.action_mask):
        legal = row[mask == 1]
        expected = 3000 / len(legal)
        assert legal.min() > 0.75 * expected and legal.max() < 1.25 * expected
    # The policy's seed alone decides the draws: the games' seeds and generators do not.
    other = VectorEnv("puerto-rico", players=4, num_envs=6, seed=3)
    other.reset()
    assert np.array_equal(env.sample_actions(PolicyRng(4)), other.sample_actions(PolicyRng(4)))
    draws = [env.sample_actions(PolicyRng(s)) for s in range(5)]
    assert any(not np.array_equal(draws[0], d) for d in draws[1:])
    # Played through `step`, the same seeds give the same games.
    def play(copy):
        e = VectorEnv("puerto-rico", players=4, num_envs=6, seed=3, copy=copy)
        e.reset()
        r = PolicyRng(2)
        for _ in range(400):
            b = e.step(e.sample_actions(r))
        return b.observation.copy()

    assert np.array_equal(play(True), play(False))


def test_sample_actions_with_views_returns_the_env_action_buffer():
    env = VectorEnv("puerto-rico", players=4, num_envs=3, seed=1, copy=False)
    b = env.reset()
    rng = PolicyRng(5)
    ids = env.sample_actions(rng)
    assert ids is env.sample_actions(rng) and ids.flags.writeable
    assert all(b.action_mask[k, ids[k]] for k in range(3))
    # A caller may still edit the buffer: the ids are checked as any others.
    ids[1] = int(np.flatnonzero(b.action_mask[1] == 0)[0])
    with pytest.raises(ValueError, match="env 1: action id"):
        env.step(ids)
    env.step(env.sample_actions(rng))


@pytest.mark.parametrize("policy", ["sample_actions", "random_actions"])
def test_vector_benchmark_runs(policy):
    from rulesmith.bench import run_vector

    r = run_vector("puerto-rico", players=4, games=4, num_envs=4, threads=2, policy=policy)
    assert r["games"] >= 4 and r["decisions"] > 100 and r["games_per_second"] > 0 and r["policy"] == policy


def test_the_package_exports_the_vector_module():
    import rulesmith.vector

    assert rulesmith.vector.VectorEnv is VectorEnv


# A script run in its own process: a deadlock hangs it (and every thread, the main one
# included, since the stuck thread holds the GIL), so only a timeout from outside ends it.
_TWO_THREADS = """
import threading
from rulesmith.vector import PolicyRng, VectorEnv

env = VectorEnv("puerto-rico", players=4, num_envs=8, seed=1, num_threads=2)
env.reset()
done = []


def work(seed):
    rng = PolicyRng(seed)
    steps = 0
    for _ in range(400):
        try:
            env.step(env.sample_actions(rng))
            steps += 1
        except ValueError as e:
            # The other thread stepped between this one's draw and its step.
            assert "is not legal now" in str(e), e
        assert env.num_envs == 8 and env.seed == 1 and env.game_seed(0) > 0
        env._native.views()
    done.append(steps)


threads = [threading.Thread(target=work, args=(s,)) for s in (1, 2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(len(done), sum(done))
"""


def test_two_threads_stepping_one_env_finish():
    """Each call takes the env's lock with the GIL released: a thread waiting for the lock
    while holding the GIL would deadlock with a step waiting to take the GIL back."""
    import subprocess
    import sys

    try:
        run = subprocess.run([sys.executable, "-c", _TWO_THREADS], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("two threads stepping one VectorEnv did not finish in 120 s (deadlock)")
    assert run.returncode == 0, run.stderr
    threads, steps = map(int, run.stdout.split())
    assert threads == 2 and steps > 0


def test_a_closed_env_and_one_not_reset_say_so():
    env = VectorEnv("puerto-rico", players=4, num_envs=3, seed=1)
    with pytest.raises(RuntimeError, match=r"step\(\): reset\(\) was not called: call reset\(\) first"):
        env.step([0, 0, 0])
    b = env.reset()
    env.step([int(np.flatnonzero(row)[0]) for row in b.action_mask])
    env.close()
    env.close()  # closing twice is harmless
    for call in (env.reset, lambda: env.step([0, 0, 0]), lambda: env.sample_actions(PolicyRng(1)), lambda: env.game_seed(0)):
        with pytest.raises(RuntimeError, match=r"this VectorEnv is closed \(close\(\) was called\); make a new one"):
            call()
    # The arrays already returned stay readable.
    assert b.observation.shape == (3, env.observation_len)


def test_arguments_are_named_with_what_is_accepted():
    env = VectorEnv("puerto-rico", players=3, num_envs=2)
    env.reset()
    with pytest.raises(ValueError, match=r"game_seed: env 5 is not an env of this batch \(envs 0 to 1\)"):
        env.game_seed(5)
    with pytest.raises(ValueError, match=r"players=7 is not supported by `puerto-rico` \(it seats 2 to 5 players\)"):
        VectorEnv("puerto-rico", players=7)
    native = rulesmith.vector._NativeVectorEnv
    with pytest.raises(ValueError, match=r"VectorEnv: players=-1 is not supported by `puerto-rico`"):
        native("puerto-rico", -1, 2, 1)
    with pytest.raises(ValueError, match=r"opponents: seat 1: unknown bot `foo`: expected `random`"):
        native("puerto-rico", 3, 2, 1, None, [None, "foo", "random"])
    with pytest.raises(ValueError, match=r"1 opponents for 3 seats \(give one per seat\)"):
        native("puerto-rico", 3, 2, 1, None, [None])
    with pytest.raises(ValueError, match=r"every seat is a bot's: leave at least one seat to the caller"):
        native("puerto-rico", 3, 2, 1, None, ["random", "greedy", "random"])


@pytest.mark.parametrize("version", ["0.29.1", "1.0.0", None])
def test_the_gymnasium_vector_env_says_which_gymnasium_it_needs(tmp_path, version):
    """On a Gymnasium older than 1.1 (here a stand-in package of that version), or none,
    `rulesmith.vector` still gives VectorEnv, and importing RulesmithVectorEnv says why not."""
    import subprocess
    import sys

    fake = tmp_path / "gymnasium"
    fake.mkdir()
    if version is None:
        (fake / "__init__.py").write_text("raise ImportError('No module named gymnasium')\n")
    else:
        (fake / "__init__.py").write_text(f"__version__ = {version!r}\n")
    script = (
        "from rulesmith.vector import VectorEnv\n"
        "try:\n"
        "    from rulesmith.vector import RulesmithVectorEnv\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                         env={**__import__("os").environ, "PYTHONPATH": str(tmp_path)})
    assert run.returncode == 0, run.stderr
    installed = "gymnasium is not installed" if version is None else f"gymnasium {version} is installed"
    assert run.stdout.strip() == (
        f"rulesmith.vector.RulesmithVectorEnv needs gymnasium>=1.1 ({installed}): "
        'pip install "gymnasium>=1.1" (or "rulesmith-games[envs]")'
    )


def test_the_declared_gymnasium_floor_is_the_one_the_code_needs():
    """pyproject's extras and the README's install line say the Gymnasium that
    rulesmith.vector checks for."""
    from pathlib import Path

    from rulesmith.vector import GYMNASIUM_FLOOR

    here = Path(__file__).resolve().parents[1]
    floor = ".".join(map(str, GYMNASIUM_FLOOR))
    pyproject = (here / "pyproject.toml").read_text()
    readme = (here / "README.md").read_text()
    import re

    declared = set(re.findall(r"gymnasium>=([0-9.]+)", pyproject + readme))
    assert declared == {floor}, declared


def test_a_gymnasium_vector_env_that_failed_to_start_is_freed_quietly():
    """Gymnasium's VectorEnv closes itself when freed, also after its __init__ raised."""
    import gc
    import sys

    pytest.importorskip("gymnasium")
    from rulesmith.vector import RulesmithVectorEnv

    seen = []
    hook, sys.unraisablehook = sys.unraisablehook, seen.append
    try:
        with pytest.raises(ValueError, match="seat=3"):
            RulesmithVectorEnv("puerto-rico", players=3, seat=3)
        gc.collect()
    finally:
        sys.unraisablehook = hook
    assert not seen, [u.exc_value for u in seen]
