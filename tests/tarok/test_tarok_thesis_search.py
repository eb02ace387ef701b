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


def test_thesis_variant_sets_all_five():
    cfg = Z.variant_cfg("all", "thesis")
    assert cfg[Z.CFG_ROOT_AB] == 1 and cfg[Z.CFG_MW_THESIS] == 1 and cfg[Z.CFG_PRUNE_THESIS] == 1
    assert cfg[Z.CFG_SECOND_QUEEN] == 1 and cfg[Z.CFG_TT_NOSEAT] == 1
    assert list(cfg[:4]) == list(Z.CONFIGS["all"])
    sound = Z.variant_cfg("all", "sound")
    assert sound[Z.CFG_SECOND_QUEEN] == 0 and sound[Z.CFG_TT_NOSEAT] == 0


@pytest.mark.parametrize("kw", [{"root": "half"}, {"minimal_window": "mtd"},
                                {"pruning": "none"}, {"second_highest": "king"},
                                {"tt_key": "none"}])
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


# ----------------------------------------------------------------------- p. 28 item 4: queen
def _kept_queen(S, queen=True):
    return names(Z.thesis_card_moves(S, R.legal_mask(S), queen))


def test_queen_condition_keeps_second_highest_under_a_queen():
    """Partner winning, suit on suit (Table 5: second highest and highest): with HQ the
    highest, HC is kept under both readings."""
    S = position([["H1", "S7"], ["HK", "S8"], ["HQ", "HC", "H4", "H2", "XX"]], decl=0,
                 trick=["H1", "HK"])
    assert _kept_queen(S, False) == _kept_queen(S, True) == sorted(["HQ", "HC"])


def test_queen_condition_drops_second_highest_under_a_knight():
    """The same trick with the cavalier the highest heart: the table's second highest (HJ)
    goes with the queen condition (thesis p. 28: "only if the highest is at least a queen")."""
    S = position([["H1", "S7"], ["HK", "S8"], ["HC", "HJ", "H4", "H2", "XX"]], decl=0,
                 trick=["H1", "HK"])
    assert _kept_queen(S, False) == sorted(["HC", "HJ"])
    assert _kept_queen(S, True) == ["HC"]


def test_queen_condition_per_suit_of_a_discard():
    """Partner winning, a discard suit by suit: spades keep SK and SQ (a king is the highest),
    diamonds only DC (a cavalier is the highest), a lone CJ stays."""
    S = position([["H1", "S7"], ["HK", "S8"], ["SK", "SQ", "S10", "DC", "D4", "CJ"]], decl=0,
                 trick=["H1", "HK"])
    assert _kept_queen(S, False) == sorted(["SK", "SQ", "DC", "D4", "CJ"])
    assert _kept_queen(S, True) == sorted(["SK", "SQ", "DC", "CJ"])


def test_queen_condition_only_with_suits():
    """Klop, tarok on tarok (Table 6: lowest, second highest, highest): the second-highest
    tarok is kept only without the condition ("with suits")."""
    S = position([["II", "S7"], ["III", "S8"], ["IV", "X", "XX"]], contract=R.KLOP,
                 decl=-1, lead=0, trick=["II", "III"])
    assert _kept_queen(S, False) == sorted(["IV", "X", "XX"])
    assert _kept_queen(S, True) == sorted(["IV", "XX"])


def test_queen_switch_reaches_the_search_and_only_removes_cards():
    """On random third-card positions the switch's cards are what the search generates, a
    nonempty subset of the unconditioned ones, smaller somewhere."""
    smaller = 0
    for S in random_positions(300, 8, seed=25):
        if S[R.S_NT] != 2:
            continue
        legal = R.legal_mask(S)
        queen = Z.thesis_card_moves(S, legal, True)
        always = Z.thesis_card_moves(S, legal, False)
        assert queen and queen & ~always == 0
        out = np.zeros(16, dtype=np.int64)
        n = Z.gen_moves(S, Z.config_cfg("only_pruning", pruning="thesis",
                                        second_highest="queen"), np.zeros(64, np.int64), out)
        assert sum(1 << int(c) for c in out[:n]) == queen
        smaller += queen != always
    assert smaller > 0


# ----------------------------------------------------------------------- eqs. 5-6: the key
def test_thesis_key_ignores_who_leads_an_empty_trick():
    """The same hands, trick empty, seat 0 or seat 1 to lead: one entry under the thesis's
    index (eqs. 5-6), two with the seat to move; the current trick's cards still count."""
    hands = [["HK", "S7", "XX"], ["H4", "S8", "X"], ["H3", "S9", "V"]]
    a = position(hands, decl=0, lead=0)
    b = position(hands, decl=0, lead=1)
    for fuzzy in (True, False):
        assert Z.position_key(a, fuzzy, False) == Z.position_key(b, fuzzy, False)
        assert Z.position_key(a, fuzzy, True) != Z.position_key(b, fuzzy, True)
    c = position([["S7", "XX"], ["H4", "S8", "X"], ["H3", "S9", "V"]], decl=0, lead=0,
                 trick=["HK"])
    assert Z.position_key(c, True, False) != Z.position_key(a, True, False)


def test_thesis_key_is_unsound_where_leaders_differ():
    """Positions with 5 cards left searched to the end with an exact-hand table: with the seat
    in the key the values are exact (plain alpha-beta's); without it (a transposition two
    tricks deep can hand the lead to another seat) some root value changes and some search
    expands fewer nodes."""
    differ = fewer = 0
    for S in random_positions(30, 5, seed=26):
        plain, _ = root_values(S, EXACT["none"], 99)
        seat, n_seat = root_values(S, Z.config_cfg("only_exact_tt"), 99)
        thesis, n_thesis = root_values(S, Z.config_cfg("only_exact_tt", tt_key="thesis"), 99)
        assert seat == plain
        differ += thesis != plain
        fewer += n_thesis < n_seat
    assert differ > 0 and fewer > 0


def test_plain_alphabeta_ignores_the_thesis_switches():
    """Plain alpha-beta (no table, no window, no pruning) with an alpha-beta root searches the
    same nodes and values whatever the pruning, window, queen and key switches say: why the
    decomposition's later steps take plain alpha-beta's nodes from the alpha-beta root's."""
    for S in random_positions(10, 10, seed=27):
        base = root_values(S, Z.config_cfg("none", root="alphabeta"), 6)
        for kw in ({"pruning": "thesis"}, {"minimal_window": "thesis"},
                   {"second_highest": "queen"}, {"tt_key": "thesis"},
                   Z.SEARCH_VARIANTS["thesis"]):
            assert root_values(S, Z.config_cfg("none", **{"root": "alphabeta", **kw}), 6) == base


def test_search_root_counts_table_answers():
    """``search_root_counted``: the nodes as ``search_root`` counts them, and the answered
    ones among them (none without a table, some with one)."""
    S = random_positions(1, 10, seed=28)[0]
    T = Z.Tables(tt_size=10007)
    moves = np.zeros(16, dtype=np.int64)
    vals = np.zeros(16, dtype=np.int64)
    for name, answered in (("none", False), ("only_tt", True)):
        counter = np.zeros(2, dtype=np.int64)
        Z.search_root_counted(S, S[R.S_TURN], 6, Z.config_cfg(name), *T.args(), moves, vals,
                              counter)
        _, nodes = Z.search_root(S, S[R.S_TURN], 6, Z.config_cfg(name), *T.args(), moves, vals)
        assert counter[0] == nodes
        assert (counter[1] > 0) == answered and counter[1] < counter[0]
