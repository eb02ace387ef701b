"""Durak experiments: rows, seat rotation, determinism across workers, bad configs."""

import numpy as np
import pandas as pd
import pytest

from gameai.core.runner import run_tasks
from gameai.durak.experiments import bout_task, game_task, seat_agents, validate_config

BASE = {"n_players": 3, "deck": 36, "seats": ["EvalAI", "RandomAI", "SmallestAI"]}


def test_game_row_columns_and_consistency():
    row = game_task(BASE, 0, np.random.default_rng(1))
    for p in range(3):
        for col in ("agent", "place", "hv", "hv_article", "hv_x100", "hv_truediv", "trumps",
                    "max_rank", "max_suit", "rank_bonus", "rank_bonus_x100", "unbalanced"):
            assert f"{col}{p}" in row
        assert row[f"unbalanced{p}"] >= 0 and row[f"rank_bonus_x100{p}"] >= row[f"rank_bonus{p}"]
        assert (row[f"max_rank{p}"] >= 2) == (row[f"rank_bonus_x100{p}"] > 0)
    assert "agent3" not in row
    assert row["fool"] in (-1, 0, 1, 2) and row["is_draw"] in (0, 1)
    if row["fool"] >= 0:
        assert row[f"place{row['fool']}"] == 2 and row["fool_agent"] == row[f"agent{row['fool']}"]
    assert row["deck_cards"] == 36 and 0 <= row["first"] < 3


def test_seats_rotate_with_the_game_index():
    cfg = validate_config(BASE)
    assert seat_agents(cfg, 0) == ["EvalAI", "RandomAI", "SmallestAI"]
    assert seat_agents(cfg, 1) == ["RandomAI", "SmallestAI", "EvalAI"]
    assert seat_agents({**cfg, "rotate": False}, 1) == cfg["seats"]
    row = game_task(BASE, 2, np.random.default_rng(0))
    assert [row[f"agent{p}"] for p in range(3)] == ["SmallestAI", "EvalAI", "RandomAI"]


def test_same_seed_same_game():
    a = game_task({**BASE, "transfer": True}, 5, np.random.default_rng(9))
    b = game_task({**BASE, "transfer": True}, 5, np.random.default_rng(9))
    assert a == b


def _tasks():
    cfgs = [{"n_players": 2, "deck": 24, "seats": ["EvalAI", "MC-AI"], "budget": 2,
             "limit": "standard", "throw": "standard", "refill": "standard", "draw": "draw",
             "transfer": True, "rotate": True},
            {"n_players": 4, "deck": 36, "seats": ["EvalAI", "RandomAI", "SmallestAI",
                                                   "EvalAI-x100"], "throw": "standard"}]
    return [(c, i) for c in cfgs for i in range(4)]


def test_games_identical_for_one_and_two_workers():
    one = run_tasks(game_task, _tasks(), root_seed=7, n_jobs=1, chunk_size=3, progress=False)
    two = run_tasks(game_task, _tasks(), root_seed=7, n_jobs=2, chunk_size=2, progress=False)
    pd.testing.assert_frame_equal(one, two)
    assert len(one) == 8


def test_bout_rows():
    rows = bout_task(BASE, 0, np.random.default_rng(2))
    assert rows and {"bout", "seat", "size", "talon", "in_hands", "hv", "hv_truediv", "agent",
                     "fool", "place"} <= set(rows[0])
    assert rows[0]["bout"] == 0 and rows[0]["talon"] == 36 - 18
    assert sum(r["fool"] for r in rows if r["bout"] == 0) <= 1


@pytest.mark.parametrize("override, message", [
    ({"n_players": 6}, "n_players must be an int between 2 and 5"),
    ({"deck": 40}, "deck must be one of 24, 32, 36, 52"),
    ({"seats": ["EvalAI", "RandomAI"]}, "seats must list 3 agent names"),
    ({"seats": ["EvalAI", "RandomAI", "Clever"]}, "unknown agent 'Clever'"),
    ({"limit": "six"}, "limit must be one of openfool, standard"),
    ({"throw": "x"}, "throw must be one of openfool, standard"),
    ({"refill": "x"}, "refill must be one of openfool, standard"),
    ({"draw": "x"}, "draw must be one of draw, no_draw"),
    ({"transfer": "yes"}, "transfer must be true or false"),
    ({"budget": 0}, "budget must be an int >= 1"),
    ({"colour": "red"}, "unknown parameter 'colour'"),
])
def test_bad_configs_name_the_parameter(override, message):
    with pytest.raises(ValueError, match=message):
        game_task({**BASE, **override}, 0, np.random.default_rng(0))


def test_missing_required_parameter():
    with pytest.raises(ValueError, match="config needs 'seats'"):
        validate_config({"n_players": 2, "deck": 36})


def test_lead_rows_count_evalai_leads_beside_smallest():
    from gameai.durak.experiments import LEAD_COLS, lead_task

    cfg = {"n_players": 3, "deck": 36, "seats": ["EvalAI", "SmallestAI", "SmallestAI"]}
    rows = pd.DataFrame([lead_task(cfg, i, np.random.default_rng(i)) for i in range(60)])
    assert list(rows.columns) == list(LEAD_COLS)
    tot = rows.sum()
    assert tot["leads"] > 0 and 0 < tot["differ"] <= tot["leads"]
    for col in ("group", "higher", "trump", "hv_smallest"):
        assert 0 <= tot[col] <= tot["differ"]
    again = lead_task(cfg, 5, np.random.default_rng(5))
    assert again == rows.iloc[5].to_dict()


def test_openfool_deck_and_transfer_check_in_configs():
    row = game_task({"n_players": 5, "deck": 24, "seats": ["EvalAI"] * 5}, 0,
                    np.random.default_rng(0))
    assert row["deck_cards"] == 28
    row = game_task({"n_players": 5, "deck": 24, "seats": ["EvalAI"] * 5, "deck_rule": "plain"},
                    0, np.random.default_rng(0))
    assert row["deck_cards"] == 32
    with pytest.raises(ValueError, match="transfer_check must be one of standard, openfool"):
        validate_config({**BASE, "transfer_check": "loose"})
    with pytest.raises(ValueError, match="deck_rule must be one of openfool, plain"):
        validate_config({**BASE, "deck_rule": "big"})


def test_only_five_players_with_24_cards_name_the_deck_rule_in_task_configs():
    """Task keys hash the configs: only the configurations whose games changed with OpenFool's
    deck adjustment name it, so every other cached result keeps its key."""
    from gameai.durak.chapter import _deck

    assert _deck(5, 24) == {"n_players": 5, "deck": 24, "deck_rule": "openfool"}
    assert all(_deck(n, d) == {"n_players": n, "deck": d} for n in range(2, 6)
               for d in (24, 32, 36, 52) if (n, d) != (5, 24))
