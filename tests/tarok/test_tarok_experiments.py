"""Experiment tasks at tiny sizes: row shapes, same deals across configs, exact configurations
choosing the same card, bad parameters failing at once with the parameter's name; the paper's
numbers carry every claim id of the spec."""

import numpy as np
import pytest

import gameai  # noqa: F401
from gameai.tarok import experiments as E
from gameai.tarok import paper
from gameai.tarok import rules as R


def test_search_cost_task_rows_and_exact_configs_agree():
    cfg = {"configs": ["none", "only_history", "only_minwindow", "all"], "depths": [3, 4],
           "samples": 2}
    rows = E.search_cost_task(cfg, 0, np.random.default_rng(0))
    assert len(rows) == 2 * 4 * 2
    r = rows[0]
    assert set(r) == {"deal", "tricks_played", "depth", "config", "sample", "nodes", "seconds",
                      "card", "n_legal", "decision", "root_window"}
    for depth in (3, 4):
        dec = {row["decision"] for row in rows if row["depth"] == depth and
               row["config"] in ("none", "only_history", "only_minwindow")}
        assert len(dec) == 1  # exact enhancements: the same values, the same card
        nodes = {row["config"]: row["nodes"] for row in rows
                 if row["depth"] == depth and row["sample"] == 0}
        assert nodes["all"] <= nodes["none"]


def test_search_cost_task_later_positions():
    rows = E.search_cost_task({"configs": ["all", "all_exact_tt"], "depths": [3], "samples": 1,
                               "tricks_played": "random"}, 4, np.random.default_rng(1))
    assert len(rows) == 2 and rows[0]["tricks_played"] == rows[1]["tricks_played"]


def test_same_deal_for_every_config():
    a = E.prepared_state(7, R.THREE, 1, 2003)
    b = E.prepared_state(7, R.THREE, 1, 2003)
    assert (a == b).all()
    assert not (a == E.prepared_state(8, R.THREE, 1, 2003)).all()


def test_game_task_rows():
    for player in ("random", "rule", "tarokist"):
        row = E.game_task({"player": player, "opponent": "random", "samples": 1,
                           "depths": [3, 3, 3]}, 5, np.random.default_rng(2))
        assert row["seat"] == 5 % 3 and 0 <= row["points"] <= 70
        assert row["win"] == int(row["points"] > 35)
        assert row["player"] == player


def test_session_task_small():
    rows = E.session_task({"games": 2, "play": "rule", "bid_sims": 1, "talon_sims": 1,
                           "sim_depth": 1}, 0, np.random.default_rng(3))
    assert len(rows) == 2
    assert rows[0]["contract"] in R.CONTRACT_NAMES
    assert {"margin0", "margin1", "margin2", "score0", "threshold_trula0"} <= set(rows[0])


@pytest.mark.parametrize("fn,config,match", [
    (E.search_cost_task, {"configs": ["fast"]}, "configs must be"),
    (E.search_cost_task, {"samples": 0}, "samples"),
    (E.search_cost_task, {"depths": [0]}, "depths"),
    (E.search_cost_task, {"tricks_played": 13}, "tricks_played"),
    (E.search_cost_task, {"seed": 1}, "unknown search config key"),
    (E.search_cost_task, {"root_window": "mtdf"}, "root_window must be one of"),
    (E.game_task, {"player": "gib", "opponent": "rule"}, "player must be one of"),
    (E.game_task, {"player": "rule"}, "needs"),
    (E.game_task, {"player": "rule", "opponent": "rule", "contract": "klop"}, "contract"),
    (E.game_task, {"player": "rule", "opponent": "rule", "depths": [9, 12]}, "depths"),
    (E.session_task, {"games": -1}, "games"),
    (E.session_task, {"play": "x"}, "play must be one of"),
    (E.session_task, {"margin": float("nan")}, "margin"),
])
def test_bad_parameters(fn, config, match):
    with pytest.raises(ValueError, match=match):
        fn(config, 0, np.random.default_rng(0))


def test_paper_claim_ids():
    ids = {r["claim_id"] for r in paper.claim_rows()}
    spec = {"table1.all", "table1.no_tt", "table1.no_history", "table1.no_minwindow",
            "table1.no_pruning", "table1.only_tt", "table1.only_history",
            "table1.only_minwindow", "table1.only_pruning", "table1.none", "table1.reduction",
            "fuzzy_tt.gain"}
    assert spec <= ids
    assert paper.TABLE1["table1.none"][1] / paper.TABLE1["table1.all"][1] == pytest.approx(
        184, rel=0.01)
    for name in paper.TABLE8:
        assert paper.TABLE8[name][2] == paper.TABLE1[f"table1.{name}"][1]


def test_bench_quick(capsys):
    from gameai.tarok import bench

    out = bench.main(quick=True)
    assert out["deals_per_s"] > 0 and out["us_per_node_all"] > 0
    assert set(out["search"]) == {"sound", "thesis"}
    for rates in out["search"].values():
        assert set(rates) == set(E.TABLE1_CONFIGS)
    assert "random deals/s" in capsys.readouterr().out
    if out["like_for_like"] is not None:
        assert out["like_for_like"]["openspiel_cpp"] > 0 and out["like_for_like"]["ours"] > 0


def test_bench_start_states_agree_with_openspiel():
    """The like-for-like start states: the same hands in both engines after bidding three,
    talon and discards, 16 - 3 = 13 + 3 cards for the declarer, play to go."""
    pytest.importorskip("pyspiel")
    from gameai.tarok import bench

    theirs, ours = bench.start_states(5, seed=3)
    for st, S in zip(theirs, ours):
        for p in range(3):
            assert int(S[R.S_HAND + p]) == sum(1 << c for c in st.player_cards(p))
        assert R.popcount(np.int64(S[R.S_HAND])) == 16
        assert str(st.current_game_phase()).endswith("TRICKS_PLAYING")
        assert S[R.S_TURN] == st.current_player() == 0  # forehand leads in both


# ----------------------------------------------------------------------- thesis switches
def test_search_switches_reach_the_search():
    """The thesis configuration searches fewer nodes than the sound one on the same samples,
    and a bad switch value fails at once with its name."""
    base = {"configs": ["all"], "depths": [5], "samples": 2}
    sound = E.search_cost_task(base, 1, np.random.default_rng(4))
    thesis = E.search_cost_task({**base, "root_window": "alphabeta", "minimal_window": "thesis",
                                 "pruning": "thesis"}, 1, np.random.default_rng(4))
    assert sum(r["nodes"] for r in thesis) < sum(r["nodes"] for r in sound)
    for key in ("minimal_window", "pruning"):
        with pytest.raises(ValueError, match=f"{key} must be one of"):
            E.search_cost_task({**base, key: "other"}, 0, np.random.default_rng(0))


def test_deal_seeded_samples_are_shared_across_configs_and_experiments():
    """With ``sample_seed = "deal"`` two experiments with other configs and other task
    generators search the same samples (the same nodes for the config they share); with the
    task's generator they do not."""
    a = {"configs": ["all"], "depths": [4], "samples": 3, "sample_seed": "deal"}
    b = {**a, "configs": ["none", "all"], "root_window": "alphabeta"}
    rows_a = E.search_cost_task({**a, "root_window": "alphabeta"}, 2, np.random.default_rng(1))
    rows_b = E.search_cost_task(b, 2, np.random.default_rng(99))
    nodes_b = [r["nodes"] for r in rows_b if r["config"] == "all"]
    assert [r["nodes"] for r in rows_a] == nodes_b
    task = [E.search_cost_task({**b, "sample_seed": "task"}, 2, np.random.default_rng(s))
            for s in (1, 99)]
    assert [r["nodes"] for r in task[0]] != [r["nodes"] for r in task[1]]


def test_count_tt_adds_the_table_answers():
    cfg = {"configs": ["none", "only_tt"], "depths": [6], "samples": 2, "count_tt": True}
    rows = E.search_cost_task(cfg, 3, np.random.default_rng(0))
    assert all(r["tt_answers"] == 0 for r in rows if r["config"] == "none")
    assert all(0 <= r["tt_answers"] < r["nodes"] for r in rows)
    assert "tt_answers" not in E.search_cost_task({**cfg, "count_tt": False}, 3,
                                                  np.random.default_rng(0))[0]
    for key in ("second_highest", "tt_key", "sample_seed"):
        with pytest.raises(ValueError, match=f"{key} must be one of"):
            E.search_cost_task({**cfg, key: "other"}, 0, np.random.default_rng(0))


def test_window_cost_task_sets_the_window_against_exact_alphabeta():
    """With PVS the exact configuration (minimal window only) never loses value against plain
    alpha-beta; every row names its window; the thesis window's loss is never negative."""
    cfg = {"configs": ["only_minwindow", "all"], "depth": 4, "samples": 2}
    rows = []
    for i in range(4):
        rows += E.window_cost_task(cfg, i, np.random.default_rng(i))
    assert len(rows) == 4 * 2 * 2 * 2
    assert {r["window"] for r in rows} == {"pvs", "thesis"}
    for r in rows:
        assert r["loss"] >= 0
        if r["config"] == "only_minwindow" and r["window"] == "pvs":
            assert r["loss"] == 0
    with pytest.raises(ValueError, match="search must be one of"):
        E.window_cost_task({**cfg, "search": "fast"}, 0, np.random.default_rng(0))


def test_thesis_window_agent_plays():
    row = E.game_task({"player": "tarokist_thesis_window", "opponent": "rule", "samples": 1,
                       "depths": [3, 3, 3]}, 2, np.random.default_rng(5))
    assert 0 <= row["points"] <= 70 and row["nodes"] > 0


def test_bench_record_round_trip(tmp_path):
    """The book reads the bench record ``gameai bench tarok`` writes; no record: None."""
    from gameai.tarok import bench

    assert bench.read_record(tmp_path / "none.json") is None
    path = tmp_path / "bench.json"
    path.write_text('{"machine": {"cpu": "x", "date": "d"}, "like_for_like": null}')
    assert bench.read_record(path)["machine"]["cpu"] == "x"
    assert set(bench.machine()) >= {"cpu", "cores", "date"}
