"""The faster greedy (issue 45) plays exactly as the former one: the same moves, the same random
draws, so every stored row stays the same.

``gameai.kingdomino.reference`` keeps the former greedy playout; each test compares it with
``policies`` on many positions of random and greedy games (holes, tiles outside the centre and
round 13 included), and the last test recomputes a few tasks of the committed results."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from kd_positions import mixed_positions

from gameai.core.runner import task_seed
from gameai.kingdomino import policies as P
from gameai.kingdomino import reference as R
from gameai.kingdomino.experiments import game_task
from gameai.kingdomino.rules import (
    N_DOMINOES,
    current_player,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "kingdomino"


@pytest.fixture(scope="module")
def positions():
    """Positions of games from all-random to all-greedy play (the former FG)."""
    return mixed_positions(60, 1000, lambda g: (g % 5) / 4, R.fg_move_reference)


def test_positions_cover_holes_and_outside_tiles(positions):
    """The positions include kingdoms with a hole and kingdoms past the centre (the branches of
    the candidates' fallback), so the agreement below is not about easy cases only."""
    from gameai.kingdomino.rules import K_NOUT
    holes = sum(R.hole_masks_reference(K[p])[0] != 0 for _, K in positions for p in range(4))
    outside = sum(K[p, K_NOUT] > 0 for _, K in positions for p in range(4))
    assert holes > 100 and outside > 100


def test_hole_masks_agree(positions):
    for _, K in positions:
        for p in range(4):
            assert P.hole_masks(K[p]) == R.hole_masks_reference(K[p])


def test_candidates_and_greedy_value_agree(positions):
    """Every domino on every kingdom: the same candidates in the same order with the same gains,
    and the same greedy value (hole masks from the reference, so each part is checked alone)."""
    pb, gb, _ = P.new_buffers()
    pr, gr, _ = P.new_buffers()
    for i, (_, K) in enumerate(positions):
        if i % 3:  # every third position: all 48 dominoes on all four kingdoms is enough
            continue
        for p in range(4):
            k = K[p]
            holes, one_free = R.hole_masks_reference(k)
            for d in range(1, N_DOMINOES + 1):
                n = P.greedy_candidates(k, d, pb[0], gb[0])
                m = R.greedy_candidates_reference(k, d, pr[0], gr[0])
                assert n == m
                assert list(pb[0, :n]) == list(pr[0, :m])
                assert list(gb[0, :n]) == list(gr[0, :m])
                assert P.greedy_value(k, d, holes, one_free) == R.greedy_value_reference(
                    k, d, pr[1], gr[1], holes, one_free)


def _draw_for_draw(new, old, G, K, seed):
    """Both move functions from copies of (G, K) with equal generators: the same move, and the
    generators left in the same state (the same number of draws)."""
    bufs_new, bufs_old = P.new_buffers(), P.new_buffers()
    r_new, r_old = np.random.default_rng(seed), np.random.default_rng(seed)
    m_new = new(G.copy(), K.copy(), r_new, *bufs_new, P.new_memo(0))  # the greedy code alone
    m_old = old(G.copy(), K.copy(), r_old, *bufs_old)
    assert m_new == m_old
    assert r_new.bit_generator.state == r_old.bit_generator.state


def test_fg_moves_agree_move_for_move_and_draw_for_draw(positions):
    for i, (G, K) in enumerate(positions):
        for seed in range(3):  # different tie-breaks
            _draw_for_draw(P.fg_move, R.fg_move_reference, G, K, 100 * i + seed)
            _draw_for_draw(P.fg_authors_move, R.fg_authors_move_reference, G, K, 100 * i + seed)


@pytest.mark.parametrize("policy", [P.POL_FG, P.POL_PG, P.POL_EG,
                                    P.POL_FG + P.GREEDY_AUTHORS, P.POL_PG + P.GREEDY_AUTHORS,
                                    P.POL_EG + P.GREEDY_AUTHORS])
def test_playouts_agree(positions, policy):
    """Whole greedy playouts (as MCE and UCT run them) end in the same kingdoms with the same
    generator state."""
    draft = np.empty(4, dtype=np.int64)
    for i, (G, K) in enumerate(positions[::7]):
        me = current_player(G)
        ends = []
        for play in (P.playout, R.playout_reference):
            G2, K2 = G.copy(), K.copy()
            rng = np.random.default_rng(i)
            if play is P.playout:
                play(G2, K2, policy, me, rng, *P.new_buffers(), draft, P.new_memo(0))
            else:
                play(G2, K2, policy, me, rng, *P.new_buffers(), draft)
            ends.append((G2.tolist(), K2.tolist(), rng.random()))
        assert ends[0] == ends[1]


#: (experiment file, config) of a few cheap committed tasks whose players play greedy
#: playouts: our rule (FG playouts and eps-G's mix) and like for like (the authors' move order,
#: budgets and FG* opponents; and the authors' greedy in the playouts).
STORED = [
    ("table3_T0p1", {"T": 0.1, "opponent": "FG", "player": "MCE-FG/R"}),
    ("table3_T0p1", {"T": 0.1, "opponent": "FG", "player": "UCT_W-εG"}),
    ("table3authors_T0p1", {"T": 0.1, "budget": "authors", "move_order": "authors",
                            "opponent": "FG*", "player": "UCT-PG"}),
    ("greedy_check", {"T": 0.5, "budget": "authors", "move_order": "authors",
                      "opponent": "FGA", "player": "MCE-FG/R", "playout_greedy": "authors"}),
]


def _stored_row(name, config, index):
    """The committed row of task (config, index) of experiment file ``name`` (its task key, which
    also hashes the code version, seed and experiment name, is the manifest's)."""
    path = DATA / f"{name}.csv"
    if not path.is_file():
        pytest.skip(f"{path} is not there")
    manifest = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    keys = [c["key"] for c in manifest["configs"] if c["config"] == config]
    assert len(keys) == 1, config
    key = keys[0]
    with path.open(newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["key"] == key and int(row["index"]) == index:
                return row
    pytest.skip(f"task {key}/{index} is not in {path.name}")


@pytest.mark.parametrize("name,config", STORED)
def test_stored_rows_recomputed(name, config):
    """The committed rows of a few tasks come out again, field for field (root seed 2018)."""
    stored = _stored_row(name, config, 0)
    row = game_task(config, 0, np.random.default_rng(task_seed(2018, config, 0)))
    for field, value in row.items():
        assert str(value) == stored[field], field


def test_bench_greedy_speedup_plays_the_same_games():
    """``gameai bench``'s side-by-side timing of the former and the current greedy playout: both
    play the same games from the same seeds."""
    from gameai.kingdomino.bench import GREEDY_POLICIES, greedy_speedup
    speed = greedy_speedup(n_games=1, per_position=1, repeats=2)
    assert set(speed) == set(GREEDY_POLICIES)
    for v in speed.values():
        assert v["same"] and v["old_s"] > 0 and v["new_s"] > 0


def test_side_by_side_alternates_and_compares_outcomes():
    """The benchmarks' A/B timing: each variant runs once per repeat, the first alternating,
    the seconds summed per variant; one differing outcome makes ``same`` false."""
    from gameai.kingdomino.bench import _side_by_side
    calls = []

    def run(v, i):
        calls.append((v, i))
        return {"a": 1.0, "b": 3.0}[v], i if v == "a" or i < 2 else -1

    a_s, b_s, same = _side_by_side(run, "a", "b", 2)
    assert calls == [("a", 0), ("b", 0), ("b", 1), ("a", 1)]
    assert (a_s, b_s, same) == (2.0, 6.0, True)
    assert _side_by_side(run, "a", "b", 3)[2] is False


@pytest.mark.parametrize("name, greedy, opponent", [
    ("MCE-FG/R", "ours", "FG"), ("UCT_W-PG", "ours", "FG*"), ("UCT-εG", "authors", "FGA"),
    ("MCE-TR/WDL", "ours", "FG")])
def test_former_engine_plays_the_same_games(name, greedy, opponent):
    """The engine as it was before issue 45 (``agents.former_engine``: the former greedy in the
    playouts and in the static FG players, no memo) plays the games the engine plays now: the
    same kingdoms, scores, playouts and draws."""
    from gameai.kingdomino.agents import AG_FORMER, agent_row, former_engine, play_game
    from gameai.kingdomino.rules import N_PLAYERS, N_ROUNDS

    ag = np.stack([agent_row(name, playouts=40, playout_greedy=greedy)]
                  + [agent_row(opponent)] * (N_PLAYERS - 1))
    old = former_engine(ag)
    assert np.all(old[:, AG_FORMER] == 1) and np.all(ag[:, AG_FORMER] == 0)  # a copy
    ends = []
    for rows, bits in ((old, 0), (ag, P.MEMO_BITS)):
        rng = np.random.default_rng(45)
        scores = np.zeros((N_PLAYERS, N_ROUNDS), dtype=np.int64)
        playouts = np.zeros(N_PLAYERS, dtype=np.int64)
        K = play_game(rows, rng, scores, playouts, bits)
        ends.append((K.tolist(), scores.tolist(), playouts.tolist(), rng.random()))
    assert ends[0] == ends[1]
    assert ends[0][2][0] > 0  # the player searched


def test_bench_engine_speedup_times_the_same_games():
    """``gameai bench``'s old-and-new timing of Table III games: every strategy asked for in both
    experiments, the same games both ways; the totals add the cells per playout policy and per
    experiment; a wrong experiment or game count is refused before any game."""
    from gameai.kingdomino.bench import engine_speedup, engine_totals

    speed = engine_speedup(T=0.1, n_games=1, strategies=("FG", "MCE-TR/R", "UCT_W-PG"))
    assert set(speed) == {f"{e}/{p}" for e in ("rule", "authors")
                          for p in ("FG", "MCE-TR/R", "UCT_W-PG")}
    for v in speed.values():
        assert v["same"] and v["old_s"] >= 0 and v["new_s"] > 0
    totals = engine_totals(speed)
    assert set(totals) == {f"{e}/{g}" for e in ("rule", "authors")
                           for g in ("none", "TR", "PG", "all")}
    for e in ("rule", "authors"):
        assert totals[f"{e}/all"]["cells"] == 3
        assert totals[f"{e}/all"]["new_s"] == pytest.approx(
            sum(speed[f"{e}/{p}"]["new_s"] for p in ("FG", "MCE-TR/R", "UCT_W-PG")))
    with pytest.raises(ValueError, match="experiments must be among rule, authors"):
        engine_speedup(experiments=("ours",))
    with pytest.raises(ValueError, match="n_games must be at least 1"):
        engine_speedup(n_games=0)


def test_engine_totals_arithmetic():
    """Sums and ratios of :func:`engine_totals` on made-up timings."""
    from gameai.kingdomino.bench import engine_totals

    speed = {"rule/MCE-TR/R": {"old_s": 2.0, "new_s": 2.0, "same": True},
             "rule/UCT-FG": {"old_s": 3.0, "new_s": 1.0, "same": True},
             "rule/MCE-FG/R": {"old_s": 1.0, "new_s": 1.0, "same": False}}
    t = engine_totals(speed)
    assert t["rule/all"] == {"old_s": 6.0, "new_s": 4.0, "cells": 3, "same": False,
                             "speedup": 1.5}
    assert t["rule/FG"]["speedup"] == 2.0 and t["rule/FG"]["cells"] == 2
    assert t["rule/TR"]["same"] is True
