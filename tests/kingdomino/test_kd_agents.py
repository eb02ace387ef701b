"""Agents on positions with a known best move; the registry; determinism."""

import numpy as np
import pytest

from gameai.kingdomino.agents import (
    AGENT_NAMES,
    AGENTS,
    TABLE3_STRATEGIES,
    agent_row,
    budget,
    choose_move,
)
from gameai.kingdomino.policies import fg_move, gprd_move, new_buffers, new_memo
from gameai.kingdomino.rules import (
    G_CUR,
    MAX_MOVES,
    MAX_PLACEMENTS,
    PICK_NONE,
    PLACE_NONE,
    all_placements,
    apply_move,
    gain,
    new_game,
    score,
)

from kd_positions import SW, WHEAT_BLOCK, kingdoms, last_round

# domino 19: wheat with a crown | forest. Next to the wheat block: 5 squares x 2 crowns = 10
# (+6); anywhere else at most +1.
CROWN_WHEAT = 19


def _buffers():
    pb, gb, scratch = new_buffers()
    return (np.empty(MAX_MOVES, dtype=np.int64), pb, gb, scratch, np.empty(4, dtype=np.int64),
            new_memo())


def _best_gain(k, d):
    buf = np.empty(MAX_PLACEMENTS, dtype=np.int64)
    n = all_placements(k, d, buf)
    return max(gain(k, buf[i], d) for i in range(n))


def test_registry_has_the_17_strategies_of_table3():
    assert len(TABLE3_STRATEGIES) == 17 and set(TABLE3_STRATEGIES) <= set(AGENT_NAMES)
    # TR, GPRD, FG, FG* (the authors' FG bug), FGA (their FG in full); MCE-X/Y;
    # UCT, UCT_B, UCT_W x 4 policies
    assert len(AGENTS) == 5 + 12 + 12
    assert np.array_equal(agent_row("MCE-eG/R", 1.0), agent_row("MCE-εG/R", 1.0))
    with pytest.raises(ValueError, match="agent must be one of"):
        agent_row("MCE-XX/R")
    with pytest.raises(ValueError, match="T must be"):
        agent_row("UCT-TR", T=-1)


def test_budgets_are_T_times_the_authors_rates():
    assert budget("FG", 1.0, 1) == 29
    assert budget("TR", 0.1, 13) == 4626  # 0.1 x 46257, rounded
    assert budget("FG", 0.01, 1) == 1  # at least one playout


@pytest.mark.parametrize("mover", ["FG", "GPRD"])
def test_greedy_takes_the_obvious_crown_placement(mover):
    K = kingdoms(WHEAT_BLOCK)
    G = last_round([0, 1, 2, 3], [CROWN_WHEAT, 20, 21, 22])
    mv, pb, gb, scratch, draft, memo = _buffers()
    rng = np.random.default_rng(0)
    before = score(K[0])
    if mover == "FG":
        m = fg_move(G, K, rng, pb, gb, scratch, memo)
    else:
        m = gprd_move(G, K, rng, pb, gb)
    assert m % 5 == PICK_NONE
    assert gain(K[0], m // 5, CROWN_WHEAT) == 6 == _best_gain(K[0], CROWN_WHEAT)
    apply_move(G, K, m, rng, draft, False)
    assert score(K[0]) == before + 6


def test_greedy_first_pick_takes_the_most_crowns_on_one_tile():
    G, K = new_game(np.random.default_rng(0))
    G[G_CUR:G_CUR + 4] = [1, 45, 48, 20]  # mine with 2 crowns, mine with 3 crowns, wheat 1
    mv, pb, gb, scratch, draft, memo = _buffers()
    for seed in range(5):
        rng = np.random.default_rng(seed)
        assert fg_move(G, K, rng, pb, gb, scratch, memo) == PLACE_NONE * 5 + 2
        assert gprd_move(G, K, rng, pb, gb) == PLACE_NONE * 5 + 2


def _winning_position():
    """Seat 0 places last (round 13) with 14 points; seat 1 has 15. Only a placement of the
    crowned wheat next to the wheat block wins (20); elsewhere 15 (a draw) or less."""
    K = kingdoms(WHEAT_BLOCK, WHEAT_BLOCK + [(-1, 0, SW, 1)])
    G = last_round([1, 2, 3, 0], [20, 21, 22, CROWN_WHEAT], turn=3)
    assert score(K[0]) == 14 and score(K[1]) == 15
    return G, K


@pytest.mark.parametrize("name", ["MCE-TR/WDL", "MCE-TR/R", "MCE-FG/P", "UCT-TR", "UCT_W-FG",
                                  "UCT_B-PG"])
def test_search_with_a_large_budget_takes_the_winning_move(name):
    G, K = _winning_position()
    mv, pb, gb, scratch, draft, memo = _buffers()
    rng = np.random.default_rng(7)
    m, n = choose_move(G, K, agent_row(name, playouts=600), rng, mv, pb, gb, scratch, draft,
                       memo)
    assert n == 600
    apply_move(G, K, m, rng, draft, False)
    assert score(K[0]) == 20


def test_search_agents_play_whole_games_deterministically():
    from gameai.kingdomino.experiments import game_task

    for name in ("MCE-εG/R", "UCT_W-TR"):
        cfg = {"player": name, "opponent": "FG", "T": 0.01}
        a = game_task(cfg, 0, np.random.default_rng(42))
        b = game_task(cfg, 0, np.random.default_rng(42))
        assert a == b
        assert a["playouts"] > 0


def test_uct_with_a_full_tree_still_plays(monkeypatch):
    """Past the node cap UCT plays out from the leaves it reaches (no crash, a legal move)."""
    G, K = _winning_position()
    mv, pb, gb, scratch, draft, memo = _buffers()
    m, n = choose_move(G, K, agent_row("UCT-TR", playouts=5000), np.random.default_rng(1),
                       mv, pb, gb, scratch, draft, memo)
    assert n == 5000 and m // 5 < 484


def test_bench_measures_every_policy_and_move():
    from gameai.kingdomino.bench import playout_rates

    rates = playout_rates(seconds_per_cell=0.0005, n_games=1)
    assert set(rates) == {"TR", "εG", "PG", "FG"}
    assert all(len(v) == 13 and min(v) > 0 for v in rates.values())
    from gameai.kingdomino.bench import seconds_per_game

    assert seconds_per_game("FG", 1.0, rates) == 0.0
    assert 0 < seconds_per_game("MCE-FG/R", 1.0, rates) < seconds_per_game("MCE-FG/R", 2.0, rates)


def test_uct_bench_times_the_authors_budgets_and_compares_like_for_like():
    from gameai.kingdomino.bench import authors_uct_rates, uct_ratios, uct_rates, uct_strategies

    authors = authors_uct_rates()
    assert set(authors) == set(uct_strategies()) and len(authors) == 12
    assert all(len(v) == 13 and min(v) > 0 for v in authors.values())
    ours = uct_rates(n_games=1, T=0.1, strategies=["UCT_W-TR"])
    assert len(ours["UCT_W-TR"]) == 13
    timed = [r for r in ours["UCT_W-TR"] if r is not None]
    assert len(timed) >= 10 and min(timed) > 0
    ratios = uct_ratios({"X": [2.0, None, 9.0]}, {"X": [1.0, 5.0, 3.0]})
    assert ratios == {"X": [2.0, 3.0]}  # a move index without a search is left out


def test_fg_star_places_its_last_domino_at_random():
    K = kingdoms(WHEAT_BLOCK)
    G = last_round([0, 1, 2, 3], [CROWN_WHEAT, 20, 21, 22])
    mv, pb, gb, scratch, draft, memo = _buffers()
    gains = set()
    for seed in range(40):
        m, _ = choose_move(G, K, agent_row("FG*"), np.random.default_rng(seed), mv, pb, gb,
                           scratch, draft, memo)
        gains.add(int(gain(K[0], m // 5, CROWN_WHEAT)))
    assert 6 in gains and len(gains) > 1  # sometimes the best placement, not always


def _holes(k):
    """Single-cell holes by the spec's reading, in plain Python: empty centre cells none of
    whose in-centre neighbours is empty or the castle."""
    from gameai.kingdomino.dominoes import CASTLE, EMPTY
    from gameai.kingdomino.rules import IN_CENTRE, K_TER, OFFS, N_CELLS

    return sum(1 for e in range(N_CELLS)
               if IN_CENTRE[e] and k[K_TER + e] == EMPTY
               and not any(IN_CENTRE[e + o] and k[K_TER + e + o] in (EMPTY, CASTLE) for o in OFFS))


def test_the_hole_filter_agrees_with_counting_holes_after_the_placement():
    """``makes_hole`` (from the masks of cells with one free neighbour) says exactly whether a
    placement adds a hole, on every legal placement of 300 mid-game kingdoms without one."""
    from gameai.kingdomino.policies import hole_masks, makes_hole
    from gameai.kingdomino.rules import (G_DONE, current_player, domino_to_place, place,
                                         random_move)

    rng = np.random.default_rng(3)
    mv, pb, gb, scratch, draft, memo = _buffers()
    checked = with_hole = 0
    while checked < 300:
        G, K = new_game(rng)
        while G[G_DONE] == 0:
            k, d = K[current_player(G)], domino_to_place(G)
            holes, one_free = hole_masks(k)
            assert holes.bit_count() == _holes(k)
            if d > 0 and holes == 0:
                checked += 1
                for pl in pb[0, :all_placements(k, d, pb[0])]:
                    after = k.copy()
                    place(after, pl, d)
                    assert makes_hole(pl, one_free) == (_holes(after) > 0), (pl, d)
                    with_hole += _holes(after) > 0
            apply_move(G, K, random_move(G, K, rng, pb[2]), rng, draft, False)
    assert with_hole > 0  # the check saw placements that make holes, not only ones that don't
