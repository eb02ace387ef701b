"""The switches towards the thesis's own search (Luštrek 2002): the alpha-beta root, thesis
Algorithm 6's minimal window as printed, thesis Tables 5-6 pruning; and the named
configurations (the sound default stays today's program)."""

import numpy as np
import pytest
from tarok_positions import names, position, random_positions

import gameai  # noqa: F401
from gameai.tarok import rules as R
from gameai.tarok import search as Z

from test_tarok_search import EXACT, minimax, root_values


def test_sound_default_is_todays_cfg():
    """Every Table 1 configuration with the default switches is the row it was before."""
    for name, flags in Z.CONFIGS.items():
        old = np.zeros(Z.CFG_LEN, dtype=np.int64)
        old[:4] = flags
        assert np.array_equal(Z.config_cfg(name), old)
        assert np.array_equal(Z.variant_cfg(name, "sound"), old)


def test_thesis_variant_sets_all_three():
    cfg = Z.variant_cfg("all", "thesis")
    assert cfg[Z.CFG_ROOT_AB] == 1 and cfg[Z.CFG_MW_THESIS] == 1 and cfg[Z.CFG_PRUNE_THESIS] == 1
    assert list(cfg[:4]) == list(Z.CONFIGS["all"])


@pytest.mark.parametrize("kw", [{"root": "half"}, {"minimal_window": "mtd"},
                                {"pruning": "none"}])
def test_bad_switch_values(kw):
    with pytest.raises(ValueError, match="must be one of"):
        Z.config_cfg("all", **kw)
    with pytest.raises(ValueError, match="search must be one of"):
        Z.variant_cfg("all", "fast")


# ----------------------------------------------------------------------- Algorithm 6
def test_thesis_step_max_node_stops_after_improving_research():
    """Max node, window (5, 6) after a first child of 5: a re-searched child worth 9 sets
    a = 9 and keeps b = 6, so the node stops (as printed: b is never reset to beta)."""
    assert Z.thesis_research(True, 9, 5, 6, -100, 100)
    a, b = Z.alphabeta_thesis_step(True, 9, 5, 6)
    assert (a, b) == (9, 6) and a >= b
    a, b = Z.alphabeta_thesis_step(True, 3, 5, 6)  # failed low: the window stays
    assert (a, b) == (5, 6)


def test_thesis_step_min_node_mirrors():
    assert Z.thesis_research(False, 1, 4, 5, -100, 100)
    assert not Z.thesis_research(False, -100, 4, 5, -100, 100)  # at alpha: no re-search
    a, b = Z.alphabeta_thesis_step(False, 1, 4, 5)
    assert (a, b) == (4, 1) and b <= a
    a, b = Z.alphabeta_thesis_step(False, 20, -100, 100)  # first child: window (19, 20)
    assert (a, b) == (19, 20)


def _thesis_window(root="full"):
    return Z.config_cfg("only_minwindow", root=root, minimal_window="thesis")


def test_thesis_window_is_not_exact_but_cheaper():
    """Mid-game positions at depth 6: PVS keeps plain alpha-beta's values everywhere; the
    printed Algorithm 6 changes some root values and searches fewer nodes."""
    differ = 0
    n_pvs = n_thesis = 0
    for S in random_positions(30, 12, seed=21):
        plain, _ = root_values(S, EXACT["none"], 6)
        pvs, a = root_values(S, EXACT["minwindow"], 6)
        thesis, b = root_values(S, _thesis_window(), 6)
        assert pvs == plain
        assert set(thesis) == set(plain)
        differ += thesis != plain
        n_pvs += a
        n_thesis += b
    assert differ > 0
    assert n_thesis < n_pvs


def test_thesis_window_without_minimal_window_is_plain():
    """The thesis window switch acts only with the minimal window on."""
    for S in random_positions(12, 5, seed=22):
        cfg = Z.config_cfg("none", minimal_window="thesis")
        vals, _ = root_values(S, cfg, 99)
        for c, v in vals.items():
            T = S.copy()
            R.play(T, c)
            assert v == minimax(T, S[R.S_TURN], 99)


def test_thesis_root_stops_early():
    """Alpha-beta root with Algorithm 6: after the first card that beats the first one the
    root stops; cards not searched get -INF. Some position shows it; the first card is
    always searched and the chosen card is a legal one."""
    stopped = 0
    for S in random_positions(30, 10, seed=23):
        vals, _ = root_values(S, _thesis_window("alphabeta"), 6)
        first = min(vals)  # moves are in card order
        assert vals[first] > -Z.INF
        stopped += any(v == -Z.INF for v in vals.values())
        assert max(vals, key=vals.get) in R.cards_of(R.legal_mask(S))
    assert stopped > 0


# ----------------------------------------------------------------------- Tables 5-6
def _kept(S):
    return names(Z.thesis_card_moves(S, R.legal_mask(S)))


def test_table5_partner_winning_suit_on_suit():
    """The declarer (seat 0) leads H1, opponent seat 1 wins with HK; seat 2, seat 1's
    partner, follows suit: partner winning -> the second highest and the highest only."""
    S = position([["H1", "S7"], ["HK", "S8"], ["HQ", "HC", "H4", "H2", "XX"]], decl=0,
                 trick=["H1", "HK"])
    assert S[R.S_TURN] == 2
    assert _kept(S) == sorted(["HQ", "HC"])


def test_table5_opponent_winning_keeps_lowest_2nd_and_highest():
    """Seat 1 leads H1 and seat 2 follows low; the declarer (seat 0) plays third against the
    opponents' trick: lowest, second highest, highest."""
    S = position([["HQ", "HC", "H4", "H2", "XX"], ["H1", "S7"], ["H3", "S8"]], decl=0,
                 lead=1, trick=["H1", "H3"])
    assert S[R.S_TURN] == 0
    assert _kept(S) == sorted(["HQ", "HC", "H4"])


def test_table5_opponent_winning_tarok_on_suit():
    """Declarer void in hearts: lowest (pagat), still wins (= lowest above the trump played),
    lowest above pagat, mond."""
    S = position([["I", "II", "V", "XV", "XXI", "S7"], ["HK", "S8"], ["X", "S9"]], decl=0,
                 lead=1, trick=["HK", "X"])
    assert _kept(S) == sorted(["I", "II", "XV", "XXI"])


def test_table5_partner_winning_discard_per_suit():
    """Opponent seat 2 void in hearts and taroks, partner seat 1 winning: per suit of the
    discard its second highest and highest."""
    S = position([["H1", "S7"], ["HK", "S8"], ["SK", "SQ", "S10", "DK", "D4", "CJ"]], decl=0,
                 trick=["H1", "HK"])
    assert _kept(S) == sorted(["SK", "SQ", "DK", "D4", "CJ"])


def test_table6_beggar_and_klop():
    """Beggar, tarok on tarok: lowest and highest. Klop, suit on tarok (a discard): the
    highest of each suit."""
    S = position([["II", "S7"], ["III", "S8"], ["I", "IV", "X", "XX"]], contract=R.BEGGAR,
                 decl=2, lead=0, trick=["II", "III"])
    assert _kept(S) == sorted(["IV", "XX"])  # pagat may not be played in beggar here
    S = position([["II", "S7"], ["III", "S8"], ["SK", "S10", "DK", "D4"]], contract=R.KLOP,
                 decl=-1, lead=0, trick=["II", "III"])
    assert _kept(S) == sorted(["SK", "DK"])


def test_thesis_pruning_keeps_a_legal_subset_and_is_switched():
    """On random third-card positions of every contract: a nonempty subset of the legal
    cards; the pruning switch picks the table the search uses."""
    differ = 0
    for S in random_positions(300, 8, seed=24):
        if S[R.S_NT] != 2:
            continue
        legal = R.legal_mask(S)
        kept = Z.thesis_card_moves(S, legal)
        assert kept and kept & ~legal == 0
        out = np.zeros(16, dtype=np.int64)
        hist = np.zeros(64, dtype=np.int64)
        n = Z.gen_moves(S, Z.config_cfg("only_pruning", pruning="thesis"), hist, out)
        assert sum(1 << int(c) for c in out[:n]) == kept
        differ += kept != Z.third_card_moves(S, legal)
    assert differ > 0


def test_thesis_window_below_the_root_searches_every_root_card():
    """``thesis_inner``: Algorithm 6 below an alpha-beta root that keeps PVS - no root card is
    left unsearched, the interior still not exact (some root value differs from PVS's)."""
    differ = 0
    for S in random_positions(30, 10, seed=23):
        inner, _ = root_values(S, Z.config_cfg("only_minwindow", root="alphabeta",
                                               minimal_window="thesis_inner"), 6)
        pvs, _ = root_values(S, Z.config_cfg("only_minwindow", root="alphabeta"), 6)
        assert all(v > -Z.INF for v in inner.values())
        differ += inner != pvs
    assert differ > 0
