"""Tests of the Python package: the bindings, the environments and the examples."""

import json
import random
import re
from pathlib import Path

import numpy as np
import pytest

import rulesmith
from rulesmith import ActionError, Ruleset, RulesetError

REPO = Path(__file__).resolve().parents[3]
HOUSE = REPO / "rulesets" / "house-rules" / "puerto-rico-no-hacienda.toml"


def play_out(game, rng):
    while game.to_move is not None:
        legal = game.legal()
        game.play(legal[rng.randrange(len(legal))])
    return game


# --- rulesets ---------------------------------------------------------------------------


def test_bundled_rulesets_load_by_name():
    assert set(rulesmith.GAMES) <= set(rulesmith.bundled())
    for name in rulesmith.GAMES:
        r = Ruleset(name)
        assert r.game == name and r.name == name
        lo, hi = r.players
        assert lo <= r.default_players <= hi
        assert len(r.digest) > 8


def test_a_house_rules_file_loads_with_its_own_name():
    r = Ruleset(str(HOUSE))
    assert r.game == "puerto-rico"
    assert r.name != "puerto-rico"
    assert r.digest != Ruleset("puerto-rico").digest


def test_diagnostics_are_an_exception_with_file_line_col(tmp_path):
    bad = tmp_path / "broken.toml"
    bad.write_text('[ruleset]\nname = "broken"\ngame = "puerto-rico"\nbase = "puerto-rico"\n\n[rules]\ncity_spaces = "twelve"\n')
    with pytest.raises(RulesetError) as e:
        Ruleset(str(bad))
    assert isinstance(e.value, ValueError)
    assert re.search(re.escape(str(bad)) + r":\d+:\d+", str(e.value)), str(e.value)
    with pytest.raises(RulesetError, match="no-such-file.toml"):
        Ruleset(str(tmp_path / "no-such-file.toml"))


# --- games ------------------------------------------------------------------------------


def test_a_game_plays_views_clones_and_ends():
    game = Ruleset("puerto-rico").new_game(players=4, seed=7)
    assert game.players == 4 and game.seed == 7 and game.to_move == 0
    assert "settler" in game.legal()
    with pytest.raises(ActionError, match="legal now"):
        game.play("build harbor")
    view = game.view(0)
    assert isinstance(view, dict) and len(view["players"]) == 4
    with pytest.raises(ValueError):
        game.view(4)
    game.play("settler")
    copy = game.clone()
    assert copy.history() == game.history() == ["settler"]
    copy.play(copy.legal()[0])
    assert game.history() == ["settler"] and game.state() != copy.state()
    assert game.outcome() is None
    play_out(game, random.Random(1))
    out = game.outcome()
    assert game.is_over and game.to_move is None
    assert sorted(out) == ["end", "ranks", "scores", "tiebreaks"] and len(out["scores"]) == 4
    rec = game.record(bots=["random"] * 4)
    assert rec["actions"] == game.history() and rec["result"] == out and rec["seed"] == 7
    json.dumps(rec)


@pytest.mark.parametrize("name", rulesmith.GAMES)
def test_ids_masks_and_observations_have_fixed_sizes(name):
    r = Ruleset(name)
    game = r.new_game(seed=3)
    space = game.action_space()
    names = game.observation_names()
    # The space enumerates every action once: its size is its length, an id its index.
    assert len(space) == len(set(space)) == game.action_count > 0
    assert len(names) == len(set(names)) == game.observation_len > 0
    assert all(re.fullmatch(r"[a-z0-9_.\-]+", n) for n in names), names[:5]
    rng = random.Random(3)
    steps = 0
    while game.to_move is not None and steps < 300:
        legal, ids = game.legal(), game.legal_ids()
        assert len(ids) == len(set(ids)) == len(legal)
        assert [space[i] for i in ids] == legal
        mask = np.frombuffer(game.legal_mask(), np.int8)
        assert mask.shape == (len(space),) and mask.sum() == len(legal)
        assert all(mask[i] == 1 for i in ids)
        k = rng.randrange(len(ids))
        assert game.action_of(ids[k]) == legal[k]
        for seat in range(game.players):
            obs = np.frombuffer(game.observation(seat), np.float32)
            assert obs.shape == (len(names),) and np.isfinite(obs).all()
        game.play_id(ids[k])
        assert game.history()[-1] == legal[k]
        steps += 1
    with pytest.raises(ActionError):
        game.play_id(next(i for i in range(len(space)) if i not in game.legal_ids()))
    with pytest.raises(ActionError, match="action ids run from 0"):
        game.play_id(len(space))
    assert game.action_of(len(space)) is None


def test_an_action_keeps_its_id_across_states_and_games():
    a = Ruleset("puerto-rico").new_game(seed=1)
    b = Ruleset("puerto-rico").new_game(seed=99)
    ids_a = dict(zip(a.legal(), a.legal_ids()))
    ids_b = dict(zip(b.legal(), b.legal_ids()))
    assert ids_a == ids_b
    assert a.action_space() == b.action_space()
    # Roles first, in ruleset order; the size depends on the player count (ships, roles).
    assert a.action_space()[0] == "settler"
    three = Ruleset("puerto-rico").new_game(players=3, seed=1)
    assert three.action_count != a.action_count
    # A house rule's buildings are in its space without code.
    house = Ruleset(str(HOUSE)).new_game(players=4, seed=1)
    assert "build hacienda" in a.action_space() and "build hacienda" not in house.action_space()


def test_observation_names_describe_the_view():
    game = Ruleset("puerto-rico").new_game(players=4, seed=2)
    names = game.observation_names()
    obs = np.frombuffer(game.observation(0), np.float32)
    feature = dict(zip(names, obs))
    view = game.view(0)
    for seat in range(4):
        assert feature[f"seat{seat}.doubloons"] == view["players"][seat]["doubloons"]
    assert feature["to_move.seat0"] == 1.0 and feature["phase.role_selection"] == 1.0
    assert "building.small-market.supply" in feature and "seat3.building.harbor.colonists" in feature
    # Other seats' VP chips lie face down: never in seat 0's observation.
    assert all(feature[f"seat{s}.vp"] == 0 for s in (1, 2, 3))


def test_observations_leak_no_hidden_parts():
    # Two states that differ only in hidden parts (the plantation stack's order and the
    # generator) give the same observation to every seat; the full state differs.
    # (tests/conformance.rs checks every game so, other seats' hidden values included.)
    game = Ruleset("puerto-rico").new_game(seed=5)
    play_out_steps = 12
    rng = random.Random(0)
    for _ in range(play_out_steps):
        game.play(game.legal()[rng.randrange(len(game.legal()))])
    other = game.clone()
    state = other.state()
    stack = state["stack"]
    assert len(set(stack)) > 1
    state["stack"] = list(reversed(stack))
    state["rng"]["state"] = (state["rng"]["state"] + 12345) % 2**64
    other.set_state(state)
    assert other.state() != game.state()
    for seat in range(4):
        assert game.observation(seat) == other.observation(seat)
        assert game.view(seat) == other.view(seat)
    # ... while a visible difference shows.
    other.play(other.legal()[0])
    assert game.observation(0) != other.observation(0)


def test_bots_choose_legal_actions():
    game = Ruleset("santiago-de-cuba").new_game(seed=2)
    for bot in ["random", "greedy", "mcts:10"]:
        assert game.bot_action(bot, seed=1) in game.legal()
    with pytest.raises(ValueError):
        game.bot_action("nobody")


# --- simulate / compare / merge ---------------------------------------------------------


def test_simulate_and_compare_return_the_json_reports():
    rep = rulesmith.simulate("puerto-rico", games=20, seed=3)
    assert rep["games"] == 20 and rep["players"] == 4 and rep["seed"] == 3
    assert len(rep["seats"]) == 4 and "tally" in rep
    cmp = rulesmith.compare(["puerto-rico", str(HOUSE)], games=10)
    assert [r["games"] for r in cmp["rulesets"]] == [10, 10]
    assert cmp["rulesets"][0]["ruleset"] == "puerto-rico"
    with pytest.raises(ValueError):
        rulesmith.simulate("puerto-rico", players=9)
    with pytest.raises(ValueError):
        rulesmith.simulate("puerto-rico", bots="nobody")


def test_shards_merge_into_the_unsplit_run():
    whole = rulesmith.simulate("santiago-de-cuba", games=30, seed=4)
    shards = [rulesmith.simulate("santiago-de-cuba", games=30, seed=4, shard=(k, 3)) for k in range(3)]
    merged = rulesmith.merge(shards)
    assert merged["tally"] == whole["tally"]
    assert merged["seats"] == whole["seats"]
    with pytest.raises(ValueError, match="twice"):
        rulesmith.merge([shards[0], shards[0]])


def test_records_replay_through_the_bindings():
    rep = rulesmith.simulate("mundo-163", games=2, seed=8, record=True)
    rec = rep["records"][1]
    assert rec["seed"] == rulesmith.game_seed(8, 1)
    game = Ruleset("mundo-163").new_game(rec["players"], rec["seed"])
    for a in rec["actions"]:
        game.play(a)
    assert game.outcome() == rec["result"]


# --- environments -----------------------------------------------------------------------


@pytest.mark.parametrize("name", rulesmith.GAMES)
def test_pettingzoo_api_test(name):
    from pettingzoo.test import api_test

    from rulesmith.env import env

    api_test(env(name), num_cycles=300)


@pytest.mark.parametrize("name", ["puerto-rico", "santiago-de-cuba"])
def test_seeded_reset_is_the_simulated_game(name):
    from rulesmith.env import env as make_env

    run_seed = 11
    rep = rulesmith.simulate(name, games=2, seed=run_seed, record=True)
    env = make_env(name)
    for i, rec in enumerate(rep["records"]):
        if i == 0:
            env.reset(seed=run_seed)
        else:
            env.reset()
        assert env.game.seed == rec["seed"] == rulesmith.game_seed(run_seed, i)
        for action in rec["actions"]:
            agent = env.agent_selection
            ids = env.game.legal_ids()
            env.step(ids[env.game.legal().index(action)])
            assert not env.terminations[agent] or env.game.is_over
        assert env.game.outcome() == rec["result"]
        assert all(env.terminations.values())
        shares = [env._cumulative_rewards[a] for a in env.possible_agents]
        assert abs(sum(shares) - 1.0) < 1e-9


def test_the_environments_name_their_ids_and_features():
    from rulesmith.env import env as make_env
    from rulesmith.gym import RulesmithGymEnv

    env = make_env("santiago-de-cuba", players=3)
    env.reset(seed=2)
    obs = env.observe(env.agent_selection)
    assert obs["observation"].shape == (len(env.observation_names),)
    assert obs["action_mask"].shape == (len(env.action_names),) == (env.action_space(env.agent_selection).n,)
    legal = [env.action_names[i] for i in np.flatnonzero(obs["action_mask"])]
    assert sorted(legal) == sorted(env.game.legal())
    gym_env = RulesmithGymEnv("santiago-de-cuba", players=3)
    assert gym_env.action_names == env.action_names and gym_env.observation_names == env.observation_names


def test_the_aec_loop_ends_every_agent():
    from rulesmith.env import env as make_env

    env = make_env("puerto-rico-expansion", players=3)
    env.reset(seed=1)
    rng = random.Random(0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    assert env.agents == []
    assert env.render() is None


def test_gymnasium_wrapper_plays_one_seat_against_bots():
    import gymnasium as gym

    from rulesmith.gym import RulesmithGymEnv

    env = RulesmithGymEnv("puerto-rico", players=3, seat=1, opponents="greedy")
    from gymnasium.utils.env_checker import check_env

    check_env(RulesmithGymEnv("puerto-rico", players=3, on_illegal="lose"), skip_render_check=True)
    obs, _ = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    done, total, mine = False, 0.0, []
    while not done:
        assert env.game.to_move == 1
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        mine.append(action)
        obs, reward, done, trunc, info = env.step(action)
        total += reward
    assert 0.0 <= total <= 1.0 and "outcome" in info
    # The same seed and actions replay the same game (the bots are seeded).
    first = env.game.history()
    env.reset(seed=5)
    for a in mine:
        env.step(a)
    assert env.game.history() == first
    with pytest.raises(ValueError, match=r"opponents: seat 1: unknown bot `nobody`: expected `random`"):
        RulesmithGymEnv("puerto-rico", players=3, opponents="nobody")
    assert isinstance(env, gym.Env)


def test_benchmark_runs():
    from rulesmith.bench import run

    r = run("puerto-rico", players=4, games=3)
    assert r["games"] == 3 and r["decisions"] > 100 and r["games_per_second"] > 0


def test_ray_sweep_on_a_local_instance():
    ray = pytest.importorskip("ray", reason="ray is not installed on this platform")
    from rulesmith.ray_sweep import sweep

    ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
    try:
        result = sweep(["puerto-rico", str(HOUSE)], games=40, shards=4, seed=2)
    finally:
        ray.shutdown()
    for name, merged in result.items():
        whole = rulesmith.simulate(name, games=40, seed=2)
        assert merged["tally"] == whole["tally"], name


def test_readme_example_runs():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert blocks, "the README has a python example"
    exec(compile(blocks[0], "README.md", "exec"), {})


def test_rewards_share_the_win_and_nobody_wins_an_unfinished_game():
    from rulesmith._episodes import win_share

    assert win_share({"ranks": [0, 1, 2]}, 0) == 1.0
    assert win_share({"ranks": [0, 0, 2]}, 1) == 0.5
    assert win_share({"ranks": [0, 0, 2]}, 2) == 0.0
    # A game stopped by a safety cap (Mundo 163's max_rounds) keeps its standing, no winner.
    assert win_share({"ranks": [0, 1], "unfinished": True}, 0) == 0.0


# --- nonsense refused in users' words (#28) -------------------------------------------


def test_set_state_refuses_another_player_count_and_unknown_keys():
    r = Ruleset("puerto-rico")
    game = r.new_game(4, seed=3)
    before = game.state()
    three = r.new_game(3, seed=3).state()
    with pytest.raises(ValueError, match=r"3-player game, but this game has 4 players"):
        game.set_state(three)
    assert game.state() == before and game.players == 4
    typo = json.loads(json.dumps(before))
    typo["players"][1]["doublons"] = 5
    with pytest.raises(ValueError, match=r"/players/1/doublons: unknown key"):
        game.set_state(typo)
    assert game.state() == before
    # A state as it was read back is accepted; the game has no record then.
    game.set_state(before)
    with pytest.raises(ValueError, match="changed with set_state"):
        game.record()
    assert r.new_game(4, seed=3).record()["actions"] == []


def test_exec_bots_are_refused_where_they_cannot_run():
    game = Ruleset("puerto-rico").new_game(3)
    with pytest.raises(ValueError, match="bot program"):
        game.bot_action("exec:no-such-program")
    from rulesmith.gym import RulesmithGymEnv

    with pytest.raises(ValueError, match="bot program"):
        RulesmithGymEnv("puerto-rico", players=3, opponents="exec:no-such-program")


def test_compare_needs_two_rulesets():
    with pytest.raises(ValueError, match="two or more rulesets"):
        rulesmith.compare(["puerto-rico"], games=2)


def test_environments_refuse_nonsense_in_plain_words():
    from rulesmith.env import env as make_env
    from rulesmith.gym import RulesmithGymEnv

    with pytest.raises(TypeError, match=r"players='3': give the number of players as a whole number"):
        RulesmithGymEnv("puerto-rico", players="3")
    with pytest.raises(TypeError, match=r"players='3'"):
        make_env("puerto-rico", players="3")
    env = RulesmithGymEnv("puerto-rico", players=3)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        env.step(0)
    env.reset(seed=1)
    for bad in (1.5, float("nan"), "1", None):
        with pytest.raises(TypeError, match="is not an action id: give a whole number"):
            env.step(bad)
    legal = env.game.legal_ids()
    env.step(np.int64(legal[0]))
    aec = make_env("puerto-rico", players=3)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        aec.step(0)
    # Gymnasium checks its own seeds; the PettingZoo environment says what a seed is.
    for bad in (float("nan"), 1.5, "7"):
        with pytest.raises(TypeError, match=r"seed=.*: give a whole number"):
            aec.reset(seed=bad)
    with pytest.raises(ValueError, match=r"seed=-1: give a whole number"):
        aec.reset(seed=-1)
    aec.reset(seed=1)
    with pytest.raises(TypeError, match="is not an action id"):
        aec.step(1.5)


def test_bad_arguments_name_what_where_and_what_is_accepted():
    from rulesmith.env import env as make_env
    from rulesmith.gym import RulesmithGymEnv

    with pytest.raises(RulesetError, match=r"^unknown ruleset `puerto_rico`: expected a bundled ruleset \(puerto-rico, "):
        Ruleset("puerto_rico")
    r = Ruleset("puerto-rico")
    for players in (9, 1, -1):
        with pytest.raises(ValueError, match=rf"new_game: players={players} is not supported by `puerto-rico` \(it seats 2 to 5 players\)"):
            r.new_game(players)
    with pytest.raises(ValueError, match=r"simulate: players=7 is not supported by `puerto-rico` \(it seats 2 to 5"):
        rulesmith.simulate("puerto-rico", players=7, games=1)
    with pytest.raises(ValueError, match=r"players=9 is not supported by `puerto-rico` \(it seats 2 to 5 players\)"):
        make_env("puerto-rico", players=9)
    with pytest.raises(ValueError, match=r"compare: players=5 is not supported by every one of these rulesets \(together they seat 2 to 4"):
        rulesmith.compare(["puerto-rico", "santiago-de-cuba"], players=5, games=1)
    game = r.new_game(3)
    for seat in (3, -1):
        for call in (game.observation, game.observe, game.view):
            with pytest.raises(ValueError, match=rf"seat={seat}: not a seat at this 3-player table \(seats 0 to 2\)"):
                call(seat)
    with pytest.raises(ValueError, match=r"bot_action: unknown bot `grédy`: expected `random`, `greedy`, `greedy:N%`"):
        game.bot_action("grédy")
    with pytest.raises(ValueError, match=r'bots="greedy,foo,random": seat 1: unknown bot `foo`: expected `random`'):
        rulesmith.simulate("puerto-rico", players=3, games=1, bots="greedy,foo,random")
    with pytest.raises(ValueError, match=r'bots="foo": unknown bot `foo`'):
        rulesmith.simulate("puerto-rico", players=3, games=1, bots="foo")
    with pytest.raises(ValueError, match=r'bots="greedy,random": 2 bots for 4 players: give one bot for every seat, or one per seat'):
        rulesmith.simulate("puerto-rico", players=4, games=1, bots="greedy,random")
    with pytest.raises(ValueError, match=r"record: bots has 1 names for 3 seats: give one name per seat"):
        game.record(["me"])
    with pytest.raises(ValueError, match=r"seat=3: not a seat at a 3-player table \(seats 0 to 2\)"):
        RulesmithGymEnv("puerto-rico", players=3, seat=3)
    with pytest.raises(ValueError, match=r"opponents: 4 bots for 2 other seats: give one name for all of them, or a list of one per other seat \(2\) or one per seat \(3\)"):
        RulesmithGymEnv("puerto-rico", players=3, opponents=["random"] * 4)


def test_a_ruleset_file_edited_200_times_in_one_process_loads_every_time(tmp_path):
    """Each edit is a new version; the versions nobody uses any more are freed, so the
    bound (64 in use at once) is never reached by a loop that lets go of the old ones."""
    path = tmp_path / "house.toml"
    base = HOUSE.read_text()

    def edit(i):
        text = re.sub(r'^name = "[^"]*"', f'name = "house-{i}"', base, count=1, flags=re.M)
        path.write_text(text)
        return str(path)

    kept = Ruleset(edit(-1)).new_game(3, seed=1)  # a game keeps its version alive
    digests = set()
    for i in range(200):
        r = Ruleset(edit(i))
        assert r.name == f"house-{i}"
        digests.add(r.digest)
        game = r.new_game(3, seed=i)
        game.play_index(0)
    assert len(digests) == 200
    del r, game
    kept.play_index(0)
    assert len(kept.history()) == 1
    # Versions still in use stay bounded, with a message that says so and what to do.
    held = [Ruleset(edit(1000 + i)) for i in range(63)]
    with pytest.raises(RulesetError, match=r"64 versions of this ruleset are in use in this process.*`del` them"):
        Ruleset(edit(2000))
    del held[0]
    assert Ruleset(edit(2000)).name == "house-2000"


def test_random_calls_raise_python_errors_only():
    """A bounded random loop over the API with arguments good and bad: every failure is
    an ordinary Python exception (ValueError, TypeError, RuntimeError), never a panic."""
    rng = random.Random(28)
    r = Ruleset("santiago-de-cuba")
    values = [None, -1, 0, 1, 2, 3, 5, 2**64, 1.5, float("nan"), "", "x", "greedy", "exec:x", [], {}, {"a": 1}]
    for _ in range(2000):
        game = r.new_game(rng.choice([2, 3, 4]), seed=rng.randrange(100))
        for _ in range(rng.randrange(1, 6)):
            call = rng.choice(["play", "play_id", "play_index", "observe", "view", "bot_action", "set_state",
                               "action_of", "record", "new_game", "simulate", "merge"])
            v = rng.choice(values)
            try:
                if call == "set_state":
                    state = game.state()
                    if isinstance(v, dict):
                        state.update(v)
                    elif v is not None:
                        state["round"] = v
                    game.set_state(state)
                elif call == "new_game":
                    r.new_game(v)
                elif call == "simulate":
                    rulesmith.simulate("santiago-de-cuba", players=v, games=1)
                elif call == "merge":
                    rulesmith.merge([v])
                elif call == "record":
                    game.record(v)
                else:
                    getattr(game, call)(v)
            except (ValueError, TypeError, RuntimeError, OverflowError):
                pass


def test_a_game_is_usable_from_another_thread():
    import threading

    game = Ruleset("puerto-rico").new_game(3, seed=4)
    seen = []

    def work():
        try:
            game.play(game.legal()[0])
            seen.append(game.history())
        except BaseException as e:  # a PanicException would land here
            seen.append(e)

    # One thread after another: each uses the game made on the main thread.
    for _ in range(4):
        t = threading.Thread(target=work)
        t.start()
        t.join()
    assert all(isinstance(s, list) for s in seen), seen
    assert len(game.history()) == 4


def test_merge_names_a_report_of_another_version():
    a, b = (rulesmith.simulate("santiago-de-cuba", players=3, games=4, shard=(k, 2)) for k in (0, 1))
    assert a["version"] == b["version"]
    del a["version"], a["run_games"]
    with pytest.raises(ValueError, match=r"made by another \(earlier\) version of rulesmith"):
        rulesmith.merge([a, b])


# --- packaging ----------------------------------------------------------------------------


def test_version_typing_and_stubs_are_installed():
    import ast
    import importlib.metadata
    import inspect

    from rulesmith import _rulesmith

    cargo = (REPO / "Cargo.toml").read_text()
    version = re.search(r'^version = "([^"]+)"', cargo, re.M).group(1)
    assert rulesmith.__version__ == version
    # The distribution's name on PyPI differs from the import name.
    assert importlib.metadata.version("rulesmith-games") == version
    package = Path(rulesmith.__file__).parent
    assert (package / "py.typed").is_file()
    stubs = ast.parse((package / "_rulesmith.pyi").read_text())
    stubbed = {n.name for n in stubs.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    stubbed |= {n.target.id for n in stubs.body if isinstance(n, ast.AnnAssign) and n.target.id != "__all__"}
    native = {n for n in dir(_rulesmith) if not n.startswith("_") or n == "__version__"}
    assert stubbed == native, f"stubs only: {stubbed - native}; native only: {native - stubbed}"
    # Every public function and method has a docstring.
    for name in sorted(native):
        obj = getattr(_rulesmith, name)
        if callable(obj):
            assert inspect.getdoc(obj), name
        if inspect.isclass(obj) and not issubclass(obj, Exception):
            for attr, member in vars(obj).items():
                if not attr.startswith("_"):
                    assert inspect.getdoc(member), f"{name}.{attr}"
