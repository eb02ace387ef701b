"""Rules tests from hand-made positions, one per statement of the spec's "Rules" section
(the thesis's rules; paper §2.1)."""

import numpy as np
import pytest
from tarok_positions import m, names, position

import gameai  # noqa: F401  (numba cache)
from gameai.tarok import rules as R


# ------------------------------------------------------------------------------ cards
def test_deck_54_cards_points_and_counting_total_70():
    assert R.N_CARDS == 54
    assert int(R.POINTS.sum()) == 106  # nominal sum (spec)
    assert R.counted_points(R.ALL_CARDS) == 70
    assert [R.card_name(c) for c in (0, 20, 21, 22, 29, 38, 45)] == [
        "I", "XXI", "Sk", "H4", "HK", "S7", "SK"]
    # red suits high to low K Q C J 1 2 3 4; black K Q C J 10 9 8 7
    assert R.card_from_name("H1") > R.card_from_name("H2") > R.card_from_name("H4")
    assert R.card_from_name("S10") > R.card_from_name("S7")


@pytest.mark.parametrize("cards,expected", [
    (["HK", "HQ", "HC"], 5 + 4 + 3 - 2),  # a group of three: sum - 2
    (["HK"], 4),  # a last group of one: sum - 1
    (["HK", "HQ"], 8),  # a last group of two: sum - 1
    (["HK", "HQ", "HC", "HJ"], 12 - 2 + 2 - 1),
    (["HK", "HQ", "HC", "HJ", "H1"], 12 - 2 + 3 - 1),
    (["H4", "H3", "H2"], 1),
    ([], 0),
])
def test_counting_in_threes(cards, expected):
    assert R.counted_points(m(*cards)) == expected


def test_card_points():
    pts = {R.card_name(c): int(R.POINTS[c]) for c in range(54)}
    assert pts["I"] == pts["XXI"] == pts["Sk"] == pts["HK"] == pts["CK"] == 5
    assert pts["DQ"] == 4 and pts["DC"] == 3 and pts["DJ"] == 2
    assert pts["D1"] == pts["S10"] == pts["II"] == pts["XX"] == 1


def test_deal_16_each_talon_6():
    rng = np.random.default_rng(0)
    hands, talon = R.deal(rng)
    assert [R.popcount(h) for h in hands] == [16, 16, 16]
    tm = 0
    for c in talon:
        tm |= 1 << int(c)
    assert int(hands[0] | hands[1] | hands[2]) | tm == R.ALL_CARDS
    assert R.popcount(np.int64(tm)) == 6


# ------------------------------------------------------------------------------ bidding
def _script(calls):
    calls = list(calls)
    seen = []

    def choose(seat, opts, high, holder):
        seen.append((seat, tuple(opts)))
        return calls.pop(0)

    return choose, seen


def test_forehand_must_open_three_and_may_choose_klop():
    choose, seen = _script([R.THREE, R.PASS, R.PASS, R.KLOP])
    assert R.run_bidding(choose) == (R.KLOP, -1)
    assert seen[0] == (0, (R.THREE,))
    assert seen[-1] == (0, (R.THREE, R.KLOP))
    choose, _ = _script([R.THREE, R.PASS, R.PASS, R.THREE])
    assert R.run_bidding(choose) == (R.THREE, 0)


def test_bid_higher_or_pass_earlier_seat_may_hold():
    # 0: three, 1: two, 2: one, 0: holds one (seated before), 1: pass, 2: solo, 0: pass
    choose, seen = _script([R.THREE, R.TWO, R.ONE, R.ONE, R.PASS, R.SOLO, R.PASS])
    assert R.run_bidding(choose) == (R.SOLO, 2)
    assert R.ONE in seen[3][1]  # forehand may hold the equal bid
    assert R.TWO not in seen[2][1] and R.ONE in seen[2][1]  # seat 2 must go higher
    # no klop option once someone has raised
    choose, seen = _script([R.THREE, R.TWO, R.PASS, R.PASS])
    assert R.run_bidding(choose) == (R.TWO, 1)


def test_beggar_ranks_above_solo():
    assert R.bid_options(R.SOLO, 1, 2, True) == [R.PASS, R.BEGGAR]
    with pytest.raises(ValueError, match="illegal call"):
        R.run_bidding(_script([R.THREE, R.TWO, R.TWO])[0])


# ------------------------------------------------------------------------------ talon
def _talon_state(contract, hand0, talon):
    hands = np.zeros(3, dtype=np.int64)
    hands[0] = m(*hand0)
    rest = [c for c in range(54) if not (int(hands[0]) | m(*talon)) >> c & 1]
    hands[1] = sum(1 << c for c in rest[:16])
    hands[2] = sum(1 << c for c in rest[16:32])
    t = np.array([R.card_from_name(x) for x in talon], dtype=np.int64)
    return R.new_state(hands, t, contract, 0, 0)


HAND0 = ["Sk", "XXI", "I", "XX", "XIX", "II", "HK", "HQ", "H1", "H2", "DK", "D4", "SK", "S7",
         "CK", "C7"]
TALON = ["D3", "S8", "XV", "XVI", "CQ", "XVIII"]


def test_talon_groups_of_three_two_one():
    S = _talon_state(R.THREE, HAND0, TALON)
    assert names(R.talon_group(S, 1)) == sorted(["XVI", "CQ", "XVIII"])
    S = _talon_state(R.TWO, HAND0, TALON)
    assert names(R.talon_group(S, 2)) == sorted(["CQ", "XVIII"])
    S = _talon_state(R.ONE, HAND0, TALON)
    assert names(R.talon_group(S, 5)) == ["XVIII"]


def test_exchange_rest_to_opponents_taroks_shown():
    S = _talon_state(R.THREE, HAND0, TALON)
    assert R.exchange(S, 0, m("D4", "S7", "II"))
    assert names(S[R.S_HAND]) == sorted(set(HAND0 + ["D3", "S8", "XV"]) - {"D4", "S7", "II"})
    assert names(S[R.S_PILE]) == sorted(["D4", "S7", "II"])
    assert names(S[R.S_SHOWN]) == ["II"]  # discarded taroks are shown
    assert names(S[R.S_PILE + 1] | S[R.S_PILE + 2]) == sorted(["XVI", "CQ", "XVIII"])
    assert S[R.S_MONDLOST] == -1


@pytest.mark.parametrize("bad", [("HK", "D4", "S7"), ("I", "D4", "S7"), ("Sk", "D4", "S7"),
                                 ("XXI", "D4", "S7"), ("D4", "S7"), ("D4", "S7", "CQ")])
def test_no_kings_or_trula_discarded_and_count(bad):
    S = _talon_state(R.THREE, HAND0, TALON)
    before = S.copy()
    assert not R.exchange(S, 0, m(*bad))  # kings, trula, wrong count, card not held
    assert (S == before).all()


def test_mond_left_in_talon_costs_declarer():
    hand = [c for c in HAND0 if c != "XXI"] + ["XVII"]
    S = _talon_state(R.ONE, hand, ["D3", "S8", "XV", "XVI", "CQ", "XXI"])
    assert R.exchange(S, 0, m("D4"))
    assert S[R.S_MONDLOST] == 0


# ------------------------------------------------------------------------------ play
def test_declarer_leads_first_trick_modern_switch_forehand():
    hands = np.array([m("II"), m("III"), m("IV")], dtype=np.int64)
    t = np.arange(48, 54)
    assert R.new_state(hands, t, R.THREE, 2, 0)[R.S_TURN] == 2
    assert R.new_state(hands, t, R.THREE, 2, R.RULE_FOREHAND_LEADS)[R.S_TURN] == 0
    assert R.new_state(hands, t, R.KLOP, -1, 0)[R.S_TURN] == 0


def test_follow_suit_else_tarok_else_anything():
    S = position([["HK", "X"], ["H4", "H3", "II", "CK"], ["III", "DK"]], trick=["HK"])
    assert names(R.legal_mask(S)) == ["H3", "H4"]
    S = position([["HK", "X"], ["II", "IV", "CK", "DK"], ["III", "DK"]], trick=["HK"])
    assert names(R.legal_mask(S)) == ["II", "IV"]
    S = position([["HK", "X"], ["CK", "DK"], ["III", "DK"]], trick=["HK"])
    assert names(R.legal_mask(S)) == ["CK", "DK"]
    S = position([["V", "X"], ["HK", "DK"], ["III", "DK"]], trick=["V"])
    assert names(R.legal_mask(S)) == ["DK", "HK"]


def test_normal_contract_no_obligation_to_beat_and_pagat_free():
    S = position([["X", "HK"], ["I", "V", "XX"], ["II", "DK"]], trick=["X"])
    assert names(R.legal_mask(S)) == ["I", "V", "XX"]
    S = position([["I", "HK"], ["II", "DK"], ["V", "DK"]])
    assert "I" in names(R.legal_mask(S))


def test_klop_must_beat_if_possible():
    S = position([["HJ", "X"], ["H4", "HQ", "HK"], ["II", "DK"]], contract=R.KLOP, trick=["HJ"])
    assert names(R.legal_mask(S)) == ["HK", "HQ"]
    S = position([["HJ", "X"], ["H4", "H3"], ["II", "DK"]], contract=R.KLOP, trick=["HJ"])
    assert names(R.legal_mask(S)) == ["H3", "H4"]  # cannot beat: any card of the suit
    # a tarok in the trick: a suit card cannot beat it, any suit card goes
    S = position([["HJ", "X"], ["V", "DK"], ["H4", "HK", "II"]], contract=R.KLOP,
                 trick=["HJ", "V"])
    assert names(R.legal_mask(S)) == ["H4", "HK"]
    # void: must trump, and over the highest tarok in the trick if possible
    S = position([["HJ", "X"], ["V", "DK"], ["IV", "VI", "XX", "D4"]], contract=R.KLOP,
                 trick=["HJ", "V"])
    assert names(R.legal_mask(S)) == ["VI", "XX"]
    S = position([["X", "X"], ["II", "IV", "XX", "D4"], ["V", "DK"]], contract=R.BEGGAR, decl=0,
                 trick=["X"])
    assert names(R.legal_mask(S)) == ["XX"]


def test_klop_pagat_only_when_only_legal_card():
    S = position([["I", "HK", "II"], ["DK"], ["D4"]], contract=R.KLOP)
    assert names(R.legal_mask(S)) == ["HK", "II"]  # leading: not pagat
    S = position([["I", "II"], ["DK"], ["D4"]], contract=R.KLOP, lead=0)
    assert names(R.legal_mask(S)) == ["II"]
    S = position([["V", "II"], ["I", "IV", "DK"], ["D4"]], contract=R.KLOP, trick=["V"])
    assert names(R.legal_mask(S)) == ["IV"]  # cannot beat: any tarok but pagat
    S = position([["V", "II"], ["I", "DK"], ["D4"]], contract=R.KLOP, trick=["V"])
    assert names(R.legal_mask(S)) == ["I"]  # the only legal card
    S = position([["I"], ["DK"], ["D4"]], contract=R.KLOP, lead=0)
    assert names(R.legal_mask(S)) == ["I"]


def test_klop_pagat_forced_when_mond_and_skis_in_trick_and_wins():
    S = position([["XXI", "II"], ["Sk", "DK"], ["I", "XX", "D4"]], contract=R.KLOP,
                 trick=["XXI", "Sk"])
    assert names(R.legal_mask(S)) == ["I"]
    R.play(S, R.PAGAT)
    assert S[R.S_LASTWIN] == 2


def test_trick_winner_rules():
    S = position([["HQ", "X"], ["HK", "X"], ["H4", "X"]], trick=["HQ", "HK", "H4"])
    assert S[R.S_LASTWIN] == 1  # highest of the suit led
    S = position([["HQ", "X"], ["CK", "X"], ["H4", "X"]], trick=["HQ", "CK", "H4"])
    assert S[R.S_LASTWIN] == 0  # another suit does not win
    S = position([["HQ", "X"], ["II", "X"], ["III", "X"]], trick=["HQ", "II", "III"])
    assert S[R.S_LASTWIN] == 2  # highest tarok
    S = position([["XXI", "X"], ["I", "X"], ["Sk", "X"]], trick=["XXI", "I", "Sk"])
    assert S[R.S_LASTWIN] == 1  # pagat, mond and škis in one trick: pagat wins
    assert S[R.S_PILE + 1] & R.MOND_BIT and S[R.S_MONDLOST] == 0  # mond captured


def test_trick_goes_to_pile_and_winner_leads():
    S = position([["HQ", "DK"], ["HK", "D4"], ["H4", "D3"]], trick=["HQ", "HK", "H4"])
    assert names(S[R.S_PILE + 1]) == ["H4", "HK", "HQ"]
    assert S[R.S_TURN] == 1 and S[R.S_LEAD] == 1 and S[R.S_NT] == 0


def test_voids_recorded():
    S = position([["HQ", "X"], ["II", "DK"], ["CK", "D3"]], trick=["HQ", "II", "CK"])
    assert S[R.S_VOID + 1] == 1 << 1  # void in hearts
    assert S[R.S_VOID + 2] == (1 << 1) | 1  # void in hearts and in taroks


def test_mond_captured_by_opponent_costs_owner_not_partner():
    # decl 0; opponents 1, 2. Opp 1 plays mond, decl wins with škis: opp 1 loses 21
    S = position([["Sk", "X"], ["XXI", "X"], ["II", "X"]], decl=0, trick=["Sk", "XXI", "II"])
    assert S[R.S_MONDLOST] == 1
    # opp 1 plays mond, partner 2 wins with škis: no penalty
    S = position([["II", "X"], ["XXI", "X"], ["Sk", "X"]], decl=0, trick=["II", "XXI", "Sk"])
    assert S[R.S_MONDLOST] == -1


def test_klop_talon_gifts_first_six_tricks():
    hands = np.zeros(3, dtype=np.int64)
    cards = list(range(48))
    for p in range(3):
        hands[p] = sum(1 << c for c in cards[p::3])
    talon = np.arange(48, 54)
    S = R.new_state(hands, talon, R.KLOP, -1, 0)
    rng = np.random.default_rng(3)
    for k in range(8):
        while True:
            R.play(S, R.random_bit(R.legal_mask(S), rng))
            if S[R.S_NT] == 0:
                break
        w = S[R.S_LASTWIN]
        if k < 6:
            assert S[R.S_PILE + w] >> int(talon[k]) & 1
            assert S[R.S_TALON + k] == -1
    assert all(S[R.S_TALON + i] == -1 for i in range(6))


def test_beggar_ends_when_declarer_takes_a_trick():
    S = position([["HK", "X"], ["H4", "X"], ["H3", "X"]], contract=R.BEGGAR, decl=0,
                 trick=["HK", "H4", "H3"])
    assert S[R.S_DONE] == 1
    assert list(R.scores(S)) == [-70, 0, 0]
    S = position([["H4"], ["HK"], ["H3"]], contract=R.BEGGAR, decl=0, trick=["H4", "HK", "H3"])
    assert S[R.S_DONE] == 1 and list(R.scores(S)) == [70, 0, 0]


# ------------------------------------------------------------------------------ scoring
def _final(contract, decl_pile, ann=0, last=None, decl=0, rules=0, mondlost=-1):
    """A finished game: ``decl_pile`` cards for the declarer, the rest to seat decl+1."""
    S = position([[], [], []], contract=contract, decl=decl, rules=rules, tricks_done=16)
    dp = m(*decl_pile) if decl_pile and isinstance(decl_pile[0], str) else int(
        sum(1 << c for c in decl_pile))
    R.add_to_pile(S, decl, np.int64(dp))
    R.add_to_pile(S, (decl + 1) % 3, np.int64(R.ALL_CARDS & ~dp))
    S[R.S_NTRICKS + decl] = R.popcount(np.int64(dp)) // 3
    S[R.S_NTRICKS + (decl + 1) % 3] = 16 - S[R.S_NTRICKS + decl]
    S[R.S_ANN] = ann
    S[R.S_DONE] = 1
    S[R.S_MONDLOST] = mondlost
    if last is not None:
        S[R.S_LASTWIN], S[R.S_LASTCARD] = last
    return S


#: A neutral declarer's pile: hearts, diamonds, spades and pagat - three kings and one trula
#: card, so neither side completes kings or trula. 3 x 18 - 2 x 8 + 5 - 1 = 42 points.
NEUTRAL = [0] + list(range(22, 46))


def _pts(pile):
    return R.counted_points(np.int64(sum(1 << c for c in pile)))


def test_score_declarer_wins_and_loses_with_contract_values():
    pts = _pts(NEUTRAL)
    assert pts == 54 + 5 - 17 == 42
    for contract, value in ((R.THREE, 10), (R.TWO, 20), (R.ONE, 30), (R.SOLO, 50)):
        assert R.scores(_final(contract, NEUTRAL))[0] == pts - 35 + value
    small = [0] + list(range(22, 30))  # pagat + hearts: 9 cards
    assert R.scores(_final(R.THREE, small))[0] == _pts(small) - 35 - 10
    assert list(R.scores(_final(R.THREE, small))[1:]) == [0, 0]


def test_exactly_35_loses():
    spots = [c for c in range(22, 54) if c not in (29, 37, 45, 53)][:18]
    pile = [0, 29, 37] + spots + [1, 2, 44]  # pagat, HK, DK, ..., SQ: 24 cards
    assert _pts(pile) == 35
    assert R.scores(_final(R.THREE, pile))[0] == 0 - 10


def test_announcements_full_half_and_minus():
    base = _pts(NEUTRAL) - 35 + 10
    assert R.scores(_final(R.THREE, NEUTRAL))[0] == base
    assert R.scores(_final(R.THREE, NEUTRAL, ann=R.ANN_KINGS))[0] == base - 20  # failed
    assert R.scores(_final(R.THREE, NEUTRAL, ann=R.ANN_TRULA))[0] == base - 20
    pile = NEUTRAL + [53, 20, 21]  # + CK + mond, škis: kings and trula achieved
    b2 = _pts(pile) - 35 + 10
    assert R.scores(_final(R.THREE, pile))[0] == b2 + 10 + 10  # silent: half
    assert R.scores(_final(R.THREE, pile, ann=R.ANN_TRULA | R.ANN_KINGS))[0] == b2 + 40
    # the opponents' silent trula / kings count half against the declarer
    pile = list(range(22, 46))
    assert R.scores(_final(R.THREE, pile))[0] == _pts(pile) - 35 + 10 - 10
    pile = [0] + list(range(22, 29)) + list(range(30, 37))  # no king at all
    assert R.scores(_final(R.THREE, pile))[0] == _pts(pile) - 35 - 10 - 10


def test_pagat_ultimo():
    base = _pts(NEUTRAL) - 35 + 10
    assert R.scores(_final(R.THREE, NEUTRAL, ann=R.ANN_PAGAT, last=(0, R.PAGAT)))[0] == base + 50
    assert R.scores(_final(R.THREE, NEUTRAL, last=(0, R.PAGAT)))[0] == base + 25
    assert R.scores(_final(R.THREE, NEUTRAL, ann=R.ANN_PAGAT, last=(1, 5)))[0] == base - 50
    assert R.scores(_final(R.THREE, NEUTRAL, last=(2, R.PAGAT)))[0] == base - 25


def test_valat_and_mond_penalty():
    S = _final(R.THREE, list(range(54)))
    assert S[R.S_NTRICKS] == 18  # (all 54 cards: counted as 16 tricks below)
    S[R.S_NTRICKS] = 16
    assert R.scores(S)[0] == 70 - 35 + 10 + 10 + 10 + 250  # trula, kings, valat: silent
    S[R.S_ANN] = R.ANN_VALAT
    assert R.scores(S)[0] == 70 - 35 + 10 + 10 + 10 + 500
    base = _pts(NEUTRAL) - 35 + 10
    S = _final(R.THREE, NEUTRAL, mondlost=1)
    assert list(R.scores(S)) == [base, -21, 0]
    S = _final(R.THREE, NEUTRAL, mondlost=0)
    assert R.scores(S)[0] == base - 21


def test_klop_scoring_thesis_and_modern():
    S = position([[], [], []], contract=R.KLOP, tricks_done=16)
    p0 = list(range(0, 30))
    R.add_to_pile(S, 0, np.int64(sum(1 << c for c in p0)))
    R.add_to_pile(S, 1, np.int64(sum(1 << c for c in range(30, 54))))
    pts = [R.counted_points(S[R.S_PILE + p]) for p in range(3)]
    assert pts[2] == 0
    sc = R.scores(S)
    assert [int(x) for x in sc] == [-70 if x >= 35 else -x for x in pts]
    S[R.S_RULES] = R.RULE_MODERN_KLOP
    sc = R.scores(S)
    exp = [(-70 if x > 35 else 0) for x in pts]
    exp[2] = 70
    assert [int(x) for x in sc] == exp


def test_beggar_and_solo_talon():
    hands = np.zeros(3, dtype=np.int64)
    for p in range(3):
        hands[p] = sum(1 << c for c in range(16 * p, 16 * p + 16))
    talon = np.arange(48, 54)
    S = R.new_state(hands, talon, R.SOLO, 2, 0)
    assert names(S[R.S_PILE]) == names(sum(1 << c for c in range(48, 54)))  # to opponents
    assert S[R.S_TURN] == 2
