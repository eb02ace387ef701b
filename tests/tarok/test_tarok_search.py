"""The search (paper §4): known best cards in hand-made endings, checked against a plain
minimax; every exact enhancement (exact-key table, history, minimal window, and all of them
together) returns plain alpha-beta's value for every root card; the inexact ones (fuzzy table,
third-card pruning) only play legal cards and stay close."""

import numpy as np
import pytest
from tarok_positions import position, random_positions

import gameai  # noqa: F401
from gameai.tarok import rules as R
from gameai.tarok import search as Z


def minimax(S, me, depth):
    """Plain minimax with the same evaluation and computed node types (recursive, Python)."""
    if S[R.S_DONE] or depth == 0:
        return int(Z.evaluate(S, me))
    vals = []
    for c in R.cards_of(R.legal_mask(S)):
        T = S.copy()
        R.play(T, c)
        vals.append(minimax(T, me, depth - 1))
    return max(vals) if R.same_side(S, S[R.S_TURN], me) else min(vals)


def root_values(S, cfg, depth=99):
    T = Z.Tables(tt_size=10007)
    moves = np.zeros(16, dtype=np.int64)
    vals = np.zeros(16, dtype=np.int64)
    n, nodes = Z.search_root(S, S[R.S_TURN], depth, cfg, *T.args(), moves, vals)
    return {int(moves[i]): int(vals[i]) for i in range(n)}, int(nodes)


EXACT = {
    "none": Z.make_cfg(Z.TT_NONE, 0, 0, 0),
    "history": Z.make_cfg(Z.TT_NONE, 1, 0, 0),
    "minwindow": Z.make_cfg(Z.TT_NONE, 0, 1, 0),
    "exact_tt": Z.make_cfg(Z.TT_EXACT, 0, 0, 0),
    "all_exact": Z.make_cfg(Z.TT_EXACT, 1, 1, 0),
}


def test_cash_the_king_first():
    """Declarer holds HK, HQ; the first opponent holds H4 and XX, the second H3, H2. Leading HK
    wins it (the opponents must follow), then HQ is trumped; leading HQ first loses the king."""
    S = position([["HK", "HQ"], ["H4", "XX"], ["H3", "H2"]], decl=0)
    vals, _ = root_values(S, EXACT["none"])
    hk, hq = R.card_from_name("HK"), R.card_from_name("HQ")
    assert vals[hk] > vals[hq]
    for c, v in vals.items():
        T = S.copy()
        R.play(T, c)
        assert v == minimax(T, 0, 99)


def test_opponent_keeps_trump_for_the_king():
    """Opponent seat 1 (to play second) holds II and XX; declarer leads H4 then holds HK.
    Playing the low tarok now and keeping XX for the king is best for the opponents."""
    S = position([["H4", "HK"], ["II", "XX"], ["H3", "S7"]], decl=0, trick=["H4"])
    vals, _ = root_values(S, EXACT["none"])
    assert max(vals, key=vals.get) == R.card_from_name("II")


def test_beggar_values_match_minimax():
    """Beggar, seat 2 to play after H3: every card's value is minimax's."""
    S = position([["H4", "HK"], ["H3", "DK"], ["H2", "D4"]], contract=R.BEGGAR, decl=0,
                 lead=1, trick=["H3"])
    vals, _ = root_values(S, EXACT["none"])
    for c, v in vals.items():
        T = S.copy()
        R.play(T, c)
        assert v == minimax(T, S[R.S_TURN], 99)


def test_endings_match_minimax():
    """150 random 3-card endings of every contract: every root card's value = minimax's."""
    for S in random_positions(150, 3, seed=5):
        me = S[R.S_TURN]
        vals, _ = root_values(S, EXACT["all_exact"])
        for c, v in vals.items():
            T = S.copy()
            R.play(T, c)
            assert v == minimax(T, me, 99)


@pytest.mark.parametrize("name", [k for k in EXACT if k != "none"])
def test_exact_enhancements_equal_plain_alphabeta(name):
    """Mid-game positions at depth 6 and 5-card endings to the end: identical root values."""
    for depth, left, seed in ((6, 12, 7), (99, 5, 8)):
        for S in random_positions(24, left, seed):
            plain, n_plain = root_values(S, EXACT["none"], depth)
            vals, n = root_values(S, EXACT[name], depth)
            assert vals == plain


def test_root_alphabeta_keeps_the_best_value():
    """Alpha-beta at the root: the best card's value is exact, the others are upper bounds;
    fewer nodes over the positions (a re-search can cost more in one position)."""
    tot_full = tot_ab = 0
    for S in random_positions(24, 10, seed=13):
        full, n_full = root_values(S, EXACT["all_exact"], 6)
        cfg = EXACT["all_exact"].copy()
        cfg[Z.CFG_ROOT_AB] = 1
        ab, n_ab = root_values(S, cfg, 6)
        best = max(full.values())
        assert max(ab.values()) == best
        for c in full:
            assert ab[c] == full[c] or ab[c] <= best
        tot_full += n_full
        tot_ab += n_ab
    assert tot_ab < tot_full


def test_fuzzy_and_pruning_run_legal_and_close():
    rng_positions = random_positions(24, 10, seed=9, contracts=(R.THREE, R.SOLO))
    agree = 0
    for S in rng_positions:
        plain, n0 = root_values(S, EXACT["none"], 6)
        for cfg in (Z.config_cfg("all"), Z.config_cfg("only_pruning"), Z.config_cfg("only_tt")):
            vals, n = root_values(S, cfg, 6)
            assert set(vals) == set(R.cards_of(R.legal_mask(S)))  # the root is never pruned
            assert n <= n0
        vals, _ = root_values(S, Z.config_cfg("all"), 6)
        agree += max(vals, key=vals.get) == max(plain, key=plain.get)
    assert agree >= len(rng_positions) // 2


def test_third_card_pruning_keeps_a_subset():
    for S in random_positions(200, 8, seed=11):
        if S[R.S_NT] != 2:
            continue
        legal = R.legal_mask(S)
        kept = Z.third_card_moves(S, legal)
        assert kept and kept & ~legal == 0
        if S[R.S_CONTRACT] == R.BEGGAR:
            assert R.popcount(kept) == 1


def test_node_counts_fall_with_enhancements():
    """The ordering of Table 1 on one deal: all enhancements < none, at depth 6."""
    (S,) = random_positions(1, 16, seed=3, contracts=(R.THREE,))
    _, n_none = root_values(S, Z.config_cfg("none"), 6)
    _, n_all = root_values(S, Z.config_cfg("all"), 6)
    assert n_all < n_none


def test_depth_schedule():
    d = np.array([9, 12, 15])
    S = position([["HK"] * 1 + ["X"], ["II", "III"], ["IV", "V"]], tricks_done=0)
    S[R.S_TRICKNO] = 0
    assert Z.scheduled_depth(S, d) == 9
    S[R.S_TRICKNO] = 6
    assert Z.scheduled_depth(S, d) == 12
    S[R.S_TRICKNO] = 9
    assert Z.scheduled_depth(S, d) == 15
    S[R.S_TRICKNO] = 0
    S[R.S_NT] = 2
    assert Z.scheduled_depth(S, d) == 7  # third card: the search ends at a trick boundary


def test_bad_config_name():
    with pytest.raises(ValueError, match="search config must be one of"):
        Z.config_cfg("fast")
