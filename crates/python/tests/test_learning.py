"""What a learner needs of the environments (issue #45): seat-relative observations,
truncation at a safety cap, reward options with final scores and ranks, bool masks,
writable arrays, several learning seats (self-play) and Python opponents."""

import re

import numpy as np
import pytest

from rulesmith import Ruleset
from rulesmith.vector import VectorEnv, random_actions

GAMES = [("puerto-rico", 4), ("puerto-rico-expansion", 3), ("santiago-de-cuba", 3), ("mundo-163", 3)]
SEAT = re.compile(r"^seat(\d+)$")


def _absolute_name(relative: str, observer: int, players: int) -> str:
    """The absolute feature a seat-relative name stands for, seen by `observer`."""

    def part(p):
        if p == "me":
            return f"seat{observer}"
        if p.startswith("seat+"):
            return f"seat{(observer + int(p[5:])) % players}"
        return p

    return ".".join(part(p) for p in relative.split("."))


@pytest.mark.parametrize("name,players", GAMES)
def test_seat_relative_observation_is_the_absolute_one_with_seats_rotated(name, players):
    g = Ruleset(name).new_game(players, 3)
    absolute = g.observation_names()
    relative = g.observation_names(seat_relative=True)
    assert len(relative) == len(absolute)
    assert not any(SEAT.match(p) for n in relative for p in n.split(".")), "no absolute seat is left"
    assert any(n.startswith("me.") for n in relative) and any(".seat+1" in n or n.startswith("seat+1.") for n in relative)
    index = {n: i for i, n in enumerate(absolute)}
    rng = np.random.default_rng(0)
    for _ in range(40):
        for k in range(players):
            a = np.frombuffer(g.observation(k), np.float32)
            r = np.frombuffer(g.observation(k, seat_relative=True), np.float32)
            moved = a[[index[_absolute_name(n, k, players)] for n in relative]]
            assert np.array_equal(r, moved), (name, k)
        if g.to_move is None:
            break
        g.play_id(int(rng.choice(g.legal_ids())))
    # Seat 0's relative observation is its absolute one: the layouts agree there.
    assert np.array_equal(np.frombuffer(g.observation(0), np.float32), np.frombuffer(g.observation(0, True), np.float32))


@pytest.mark.parametrize("name,players", GAMES)
def test_the_batch_rows_are_seat_relative_for_the_seat_to_move(name, players):
    rel = VectorEnv(name, players, num_envs=2, seed=5, seat_relative=True)
    ab = VectorEnv(name, players, num_envs=2, seed=5)
    names = rel.observation_names
    assert names == Ruleset(name).new_game(players).observation_names(seat_relative=True)
    index = {n: i for i, n in enumerate(ab.observation_names)}
    b, c = rel.reset(), ab.reset()
    rng = np.random.default_rng(1)
    for _ in range(30):
        for k in range(2):
            s = int(c.to_move[k])
            assert b.to_move[k] == s
            moved = c.observation[k][[index[_absolute_name(n, s, players)] for n in names]]
            assert np.array_equal(b.observation[k], moved)
        actions = random_actions(c.action_mask, rng)
        b, c = rel.step(actions), ab.step(actions)


def _capped_mundo(tmp_path, rounds=2):
    path = tmp_path / "mundo-short.toml"
    path.write_text(
        '[ruleset]\nname = "mundo-163-short"\ngame = "mundo-163"\nextends = "mundo-163"\n'
        f"\n[end]\nmax_rounds = {rounds}\n"
    )
    return str(path)


def test_a_game_stopped_by_the_round_cap_is_truncated(tmp_path):
    from rulesmith.env import env as make_env
    from rulesmith.gym import RulesmithGymEnv
    from rulesmith.vector import RulesmithVectorEnv

    source = _capped_mundo(tmp_path)
    env = VectorEnv(source, 3, num_envs=2, seed=1, reward="rank")
    b = env.reset()
    rng = np.random.default_rng(0)
    stopped = 0
    for _ in range(3000):
        b = env.step(random_actions(b.action_mask, rng))
        ended = b.truncated
        assert not b.terminated.any(), "no game ends by its rules in two rounds"
        if ended.any():
            stopped += int(ended.sum())
            assert not b.reward[ended].any(), "a stopped game pays nobody"
            assert (b.ranks[ended] >= 0).all()
        assert not b.reward[~ended].any() and (b.ranks[~ended] == -1).all()
        if stopped >= 2:
            break
    assert stopped >= 2

    venv = RulesmithVectorEnv(source, players=3, num_envs=2, opponents="random", seed=2)
    venv.reset(seed=2)
    for _ in range(3000):
        _, reward, term, trunc, info = venv.step(random_actions(venv.action_masks(), rng))
        assert not term.any()
        if trunc.any():
            assert not reward[trunc].any() and info["_ranks"][trunc].all()
            break
    else:
        pytest.fail("no game was stopped")

    single = RulesmithGymEnv(source, players=3, opponents="random")
    obs, _ = single.reset(seed=3)
    for _ in range(3000):
        obs, reward, term, trunc, info = single.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if term or trunc:
            assert trunc and not term and reward == 0.0 and info["outcome"]["unfinished"]
            break
    else:
        pytest.fail("the single env's game was not stopped")

    aec = make_env(source, players=3)
    aec.reset(seed=4)
    for agent in aec.agent_iter():
        obs, _, term, trunc, _ = aec.last()
        if term or trunc:
            assert trunc and not term
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert aec.agents == []


@pytest.mark.parametrize("reward", ["win_share", "rank", "score_margin"])
def test_reward_options_pay_what_they_say(reward):
    env = VectorEnv("puerto-rico", 3, num_envs=4, seed=9, reward=reward)
    b = env.reset()
    rng = np.random.default_rng(2)
    ended = 0
    while ended < 6:
        b = env.step(random_actions(b.action_mask, rng))
        for k in np.flatnonzero(b.terminated):
            ended += 1
            r, scores, ranks = b.reward[k], b.scores[k], b.ranks[k]
            assert (ranks >= 0).all() and ranks.min() == 0
            if reward == "win_share":
                assert r.sum() == pytest.approx(1.0) and set(np.unique(r)) <= {0.0, 1.0, 0.5, 1 / 3}
                assert (r[ranks == 0] > 0).all()
            elif reward == "rank":
                assert r.sum() == pytest.approx(0.0, abs=1e-5) and r.min() >= -1 and r.max() <= 1
                assert r[ranks == 0].min() > r[ranks == ranks.max()].max() or ranks.max() == 0
            else:
                assert r.sum() == pytest.approx(0.0, abs=1e-4)
                others = (scores.sum() - scores) / 2
                assert r == pytest.approx(scores - others)
    with pytest.raises(ValueError, match=r'reward="wins": expected one of "win_share", "rank", "score_margin"'):
        VectorEnv("puerto-rico", 3, reward="wins")


def test_masks_are_bool_and_arrays_writable_everywhere():
    from rulesmith.env import env as make_env
    from rulesmith.gym import RulesmithGymEnv
    from rulesmith.vector import RulesmithVectorEnv

    b = VectorEnv("puerto-rico", 3, num_envs=2).reset()
    assert b.action_mask.dtype == np.bool_ and b.observation.flags.writeable
    venv = RulesmithVectorEnv("puerto-rico", players=3, num_envs=2)
    obs, _ = venv.reset()
    assert obs["action_mask"].dtype == np.bool_ and venv.observation_space.contains(obs)
    single = RulesmithGymEnv("santiago-de-cuba", players=3)
    sobs, _ = single.reset(seed=1)
    aec = make_env("mundo-163", players=3)
    aec.reset(seed=1)
    aobs = aec.observe(aec.agent_selection)
    for o in (sobs, aobs):
        assert o["action_mask"].dtype == np.bool_
        o["observation"][0] += 1.0  # the caller's to write to
        o["action_mask"][:] = False
    # Writing to them changed nothing of the game's: the next observation is as before.
    again = aec.observe(aec.agent_selection)
    assert again["action_mask"].any() and again["observation"][0] == aobs["observation"][0] - 1.0
    assert aec.action_space(aec.agent_selection).sample(again["action_mask"]) in aec.game.legal_ids()


def test_self_play_with_every_seat_learning_runs_games_to_the_end():
    from rulesmith.vector import RulesmithVectorEnv

    envs = RulesmithVectorEnv("puerto-rico", players=3, num_envs=3, learning_seats="all", seat_relative=True, seed=6)
    obs, info = envs.reset(seed=6)
    seen, ends = set(), 0
    rng = np.random.default_rng(3)
    for _ in range(5000):
        seen.update(int(s) for s in info["to_move"])
        before = info["to_move"]
        obs, reward, term, trunc, info = envs.step(random_actions(obs["action_mask"], rng))
        rewards = info["rewards"]
        assert np.array_equal(reward, rewards[np.arange(3), before])
        for k in np.flatnonzero(term):
            ends += 1
            assert rewards[k].sum() == pytest.approx(1.0) and info["_scores"][k]
        if ends >= 3:
            break
    assert ends >= 3 and seen == {0, 1, 2}


def test_python_callable_opponents_and_several_learning_seats():
    from rulesmith.vector import RulesmithVectorEnv

    calls = []

    def first_legal(obs, mask):
        calls.append(obs.shape)
        return int(np.flatnonzero(mask)[0])

    envs = RulesmithVectorEnv(
        "puerto-rico", players=4, num_envs=2, learning_seats=[0, 2], opponents=[first_legal, "random"], seed=3
    )
    assert envs.bots[1] is first_legal and envs.bots[3] == "random"
    obs, info = envs.reset()
    rng = np.random.default_rng(4)
    ends = 0
    for _ in range(4000):
        assert set(int(s) for s in info["to_move"]) <= {0, 2}
        obs, reward, term, trunc, info = envs.step(random_actions(obs["action_mask"], rng))
        ends += int(term.sum())
        if ends >= 2:
            break
    assert ends >= 2 and calls and calls[0] == (envs.env.observation_len,)
    with pytest.raises(TypeError, match="seat 1: 5 is neither a bot name nor a callable"):
        RulesmithVectorEnv("puerto-rico", players=3, opponents=[5, "random"])
    with pytest.raises(ValueError, match="learning_seats='some'"):
        RulesmithVectorEnv("puerto-rico", players=3, learning_seats="some")


def test_legal_ids_are_the_mask_rows_ids():
    env = VectorEnv("puerto-rico-expansion", 3, num_envs=2, seed=2)
    b = env.reset()
    for k in range(2):
        assert sorted(env.legal_ids(k)) == list(np.flatnonzero(b.action_mask[k]))
    # -1 leaves an env at its decision: its row is as it was, the other one moves on.
    before = b.observation.copy()
    b = env.step(np.array([-1, env.legal_ids(1)[0]]))
    assert np.array_equal(b.observation[0], before[0])
