"""Experiment task functions: rows, config validation, the size claims."""

import math

import numpy as np
import pytest

from gameai.kingdomino.experiments import (
    branching_task,
    game_config,
    game_task,
    log10_draws,
    log10_tree_size,
)
from gameai.kingdomino.paper import PLAYOUT_RATES, TABLE3, TABLE3_T, claim_rows


def test_game_row():
    row = game_task({"player": "FG", "opponent": "TR"}, 0, np.random.default_rng(1))
    assert [row[f"seat{p}"] for p in range(4)] == ["FG", "TR", "TR", "TR"]
    scores = [row[f"score{p}"] for p in range(4)]
    assert row["margin"] == scores[0] - max(scores[1:])
    assert row["win"] == (row["margin"] > 0) and row["draw"] == (row["margin"] == 0)
    assert row["score_m1"] == 10 and row["score_m13"] == scores[0]
    assert row["playouts"] == 0


def test_same_seed_same_game_other_seed_other_game():
    cfg = {"player": "GPRD", "opponent": "TR"}
    rows = [game_task(cfg, 0, np.random.default_rng(s)) for s in (3, 3, 4)]
    assert rows[0] == rows[1] and rows[0] != rows[2]


def test_a_static_player_ignores_the_budget():
    # Table III's FG row is the same player in every column: its games depend on the seed only
    # (so its spread across columns at few games is sampling noise, not the budget).
    rows = [game_task({"player": "FG", "opponent": "FG", "T": T}, 0, np.random.default_rng(7))
            for T in (0.1, 10.0)]
    assert rows[0] == rows[1]


@pytest.mark.parametrize("bad, match", [
    ({"player": "MCE-XX/R", "opponent": "FG"}, "player must be one of"),
    ({"player": "FG", "opponent": "Greedy"}, "opponent must be one of"),
    ({"player": "FG", "opponent": "FG", "T": -1}, "T must be"),
    ({"player": "FG", "opponent": "FG", "C": "a"}, "C must be"),
    ({"player": "FG", "opponent": "FG", "playouts": 1.5}, "playouts must be"),
    ({"player": "FG", "opponent": "FG", "budget": 3}, "budget must be one of rule, authors"),
    ({"player": "FG", "opponent": "FG", "budgets": "rule"}, "unknown game config key"),
    ({"opponent": "FG"}, "needs \\['player'\\]"),
    ({"player": "UCT-TR", "opponent": "FG"}, "needs a budget"),
])
def test_bad_configs_fail_naming_the_parameter(bad, match):
    with pytest.raises(ValueError, match=match):
        game_task(bad, 0, np.random.default_rng(0))


def test_defaults_are_filled():
    cfg = game_config({"player": "UCT_W-FG", "opponent": "FG", "T": 1})
    assert cfg["C"] == 0.6 and cfg["W"] == 0.1 and cfg["playouts"] == 0


def test_branching_rows():
    rows = branching_task({}, 0, np.random.default_rng(0))
    assert len(rows) == 52
    first = sorted(r["branching"] for r in rows if r["round"] == 1)
    assert first == [1, 2, 3, 4]  # round 1: picks only, in the random order
    with pytest.raises(ValueError, match="agent must be one of"):
        branching_task({"agent": "XX"}, 0, np.random.default_rng(0))
    rows = [r for i in range(20) for r in branching_task({}, i, np.random.default_rng(i))]
    assert 50 < log10_tree_size(rows) < 75  # the paper: 3.74e61 over 1,000 games


def test_size_claims():
    assert math.isclose(10 ** log10_draws(), 3.4e44, rel_tol=0.02)


def test_paper_tables():
    assert all(len(v) == 13 for v in PLAYOUT_RATES.values())
    assert len(TABLE3) == 17 and all(len(v) == len(TABLE3_T) for v in TABLE3.values())
    ids = [r["claim_id"] for r in claim_rows()]
    assert len(ids) == len(set(ids)) and "table3.UCT_W-FG.10" in ids and "tree.total" in ids


def test_every_config_the_chapter_runs_is_valid(tmp_path):
    # The chapter's own experiments at the paper's scale, recorded without computing anything.
    from gameai.kingdomino import chapter
    from gameai.kingdomino.experiments import warm_up

    res = chapter.results({"profile": "paper"}, data_dir=tmp_path, compute=False)
    configs = {key: exp.configs for key, exp in res.experiments.items()}
    for cfg in (c for cfgs in configs.values() for c in cfgs):
        if "player" in cfg:
            game_config(cfg)  # raises, naming the parameter, on anything invalid
        else:
            branching_task(cfg, 0, np.random.default_rng(0))
    table3 = [c for key, cfgs in configs.items() if key.startswith("table3_") for c in cfgs]
    assert len(table3) == len(TABLE3) * len(TABLE3_T)
    assert {(c["player"], c["T"]) for c in table3} == {(s, float(T)) for s in TABLE3 for T in TABLE3_T}
    assert len(configs["fig7"]) == 30 and len(configs["fig8"]) == 14
    assert not list(tmp_path.rglob("*.csv"))  # nothing was computed
    warm_up()


def test_mirrored_twice_only_changes_the_count():
    once = branching_task({}, 0, np.random.default_rng(5))
    twice = branching_task({"mirrored_twice": True}, 0, np.random.default_rng(5))
    pairs = [(a["branching"], b["branching"]) for a, b in zip(once, twice)]
    assert all(b in (a, 2 * a) for a, b in pairs) and any(b == 2 * a for a, b in pairs)
    with pytest.raises(ValueError, match="mirrored_twice must be"):
        branching_task({"mirrored_twice": 1}, 0, np.random.default_rng(5))


def test_long_experiments_grow_in_rounds_so_a_stopped_run_leaves_every_cell_some_games():
    from gameai.kingdomino.chapter import _rounds

    assert _rounds(200, computes=True) == [25, 50, 100, 200]
    assert _rounds(30, computes=True) == [25, 30] and _rounds(10, computes=True) == [10]
    assert _rounds(200, computes=False) == [200]  # loading asks for the full n at once
