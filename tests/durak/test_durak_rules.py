"""Durak rules from hand-made positions (OpenFool's rules, as the chapter's "Rules" paragraph states them).

Cards are written rank + suit letter (S, D, C, H); in a talon the first card is the top and the
last the bottom card, whose suit is trump.
"""

import numpy as np
import pytest

from gameai.durak.rules import (
    ACT_PASS,
    ACT_TAKE,
    MAX_ACTIONS,
    PH_ATTACK,
    PH_DEFEND,
    PH_OVER,
    PH_THROW,
    ST_ATT,
    ST_CUR,
    ST_DEF,
    ST_FIRST,
    ST_FOOL,
    ST_LIMIT,
    ST_NA,
    ST_NTHR,
    ST_OUT,
    ST_PHASE,
    ST_PLACE,
    ST_SIZE,
    ST_THR,
    ST_TRUMP,
    TRANSFER,
    apply_action,
    beats,
    card,
    cards,
    deal,
    deck_cards,
    hand_names,
    legal_actions,
    new_arrays,
    position,
    rule_switches,
    start_game,
    talon_left,
)


def act(hands, talon, st, sp, name_or_action):
    """Apply an action given as a card name (of the player to act) or ACT_* / TRANSFER + i."""
    if isinstance(name_or_action, str):
        p = st[ST_CUR]
        i = list(hands[p, :st[ST_SIZE + p]]).index(card(name_or_action))
        name_or_action = i
    mv = np.empty(MAX_ACTIONS, dtype=np.int64)
    k = legal_actions(hands, st, sp, mv)
    assert name_or_action in list(mv[:k]), "illegal action in a hand-made position"
    apply_action(hands, talon, st, sp, name_or_action)


def legal(hands, st, sp):
    mv = np.empty(MAX_ACTIONS, dtype=np.int64)
    k = legal_actions(hands, st, sp, mv)
    p = st[ST_CUR]
    out = []
    for a in mv[:k]:
        if a == ACT_TAKE:
            out.append("take")
        elif a == ACT_PASS:
            out.append("pass")
        elif a >= TRANSFER:
            out.append("transfer " + hand_names(hands, st, p)[a - TRANSFER])
        else:
            out.append(hand_names(hands, st, p)[a])
    return out


# ---------------------------------------------------------------------- decks and dealing
@pytest.mark.parametrize("deck, low", [(24, 9), (32, 7), (36, 6), (52, 2)])
def test_deck_sizes_and_lowest_rank(deck, low):
    sp = rule_switches(2, deck)
    assert sp[1] == deck and sp[2] == low


def test_deck_adjustment_openfool_and_plain():
    # OpenFool's own example: max(24, 4 x floor(6 x 5 / 4)) = max(24, 4 x 7) = 28 (8 ... A)
    assert deck_cards(5, 24) == 28 == deck_cards(5, 24, "openfool")
    # plain: the smallest deck of whole ranks >= max(24, 6 x 5 = 30): 32 (7 ... A)
    assert deck_cards(5, 24, "plain") == 32
    for rule in ("openfool", "plain"):
        assert deck_cards(4, 24, rule) == 24  # exactly 4 x 6: empty talon
        assert deck_cards(2, 24, rule) == 24 and deck_cards(3, 24, rule) == 24
        assert deck_cards(5, 32, rule) == 32 and deck_cards(5, 36, rule) == 36
    # only five players with 24 cards differ, among every configuration the engine allows
    differ = [(n, d) for n in range(2, 6) for d in (24, 32, 36, 52)
              if deck_cards(n, d, "openfool") != deck_cards(n, d, "plain")]
    assert differ == [(5, 24)]
    sp = rule_switches(5, 24)
    assert sp[1] == 28 and sp[2] == 8  # 7 ranks, lowest 8
    sp = rule_switches(5, 24, deck_rule="plain")
    assert sp[1] == 32 and sp[2] == 7
    with pytest.raises(ValueError, match="deck_rule must be one of openfool, plain"):
        rule_switches(5, 24, deck_rule="big")


def test_openfool_28_cards_for_five_players_deal_out_completely():
    """28 < 30 = 6 x 5: the deal goes round in seat order as far as the deck goes. 28 = 5 x 5 + 3:
    seats 0, 1, 2 get six cards, seats 3 and 4 five; the talon is empty from the start; the
    bottom card (the 28th) still sets the trump and is dealt last, face up, to seat 2."""
    from gameai.durak.rules import ST_DRAWN, ST_KNOWN

    sp = rule_switches(5, 24)
    hands, talon, st = new_arrays(sp)
    talon[:] = np.array(cards("8S 8D 8C 8H 9S  9D 9C 9H 10S 10D  10C 10H JS JD JC  "
                              "JH QS QD QC QH  KS KD KC KH AS  AD AC AH"))  # 8 ... A, AH bottom
    start_game(hands, talon, st, sp)
    assert list(st[ST_SIZE:ST_SIZE + 5]) == [6, 6, 6, 5, 5]
    assert talon_left(st, sp) == 0 and st[ST_DRAWN] == 28
    assert st[ST_TRUMP] == card("AH") // 13  # hearts
    # seat p gets the cards at positions p, p + 5, p + 10, ... of the deck
    assert hand_names(hands, st, 0) == ["8S", "9D", "10C", "JH", "KS", "AD"]
    assert hand_names(hands, st, 2) == ["8C", "9H", "JS", "QD", "KC", "AH"]
    assert hand_names(hands, st, 4) == ["9S", "10D", "JC", "QH", "AS"]
    assert st[ST_KNOWN + 2] == 1 << card("AH")  # dealt face up: everyone saw it
    assert all(st[ST_KNOWN + p] == 0 for p in (0, 1, 3, 4))


def test_plain_32_cards_for_five_players_leave_a_talon_of_two():
    sp = rule_switches(5, 24, deck_rule="plain")
    hands, talon, st = new_arrays(sp)
    deal(hands, talon, st, sp, np.random.default_rng(5))
    assert list(st[ST_SIZE:ST_SIZE + 5]) == [6] * 5 and talon_left(st, sp) == 2
    assert st[ST_TRUMP] == talon[31] // 13


def test_random_28_card_games_deal_every_card_and_end():
    from gameai.durak.rules import random_action

    sp = rule_switches(5, 24)
    hands, talon, st = new_arrays(sp)
    mv = np.empty(MAX_ACTIONS, dtype=np.int64)
    rng = np.random.default_rng(0)
    for _ in range(300):
        deal(hands, talon, st, sp, rng)
        held = [int(c) for p in range(5) for c in hands[p, :st[ST_SIZE + p]]]
        assert sorted(held) == sorted(int(c) for c in talon) and len(held) == 28
        assert min(c % 13 + 2 for c in held) == 8
        while st[ST_PHASE] != PH_OVER:
            apply_action(hands, talon, st, sp, random_action(hands, st, sp, mv, rng))


def test_a_deal_is_the_same_bytes_for_the_same_seed():
    """Empty hand slots are -1, not leftover memory, so equal deals compare equal as arrays."""
    sp = rule_switches(2, 36)
    arrays = []
    for _ in range(2):
        hands, talon, st = new_arrays(sp)
        deal(hands, talon, st, sp, np.random.default_rng(7))
        arrays.append((hands, talon, st))
    (h1, t1, s1), (h2, t2, s2) = arrays
    assert np.array_equal(h1, h2) and np.array_equal(t1, t2) and np.array_equal(s1, s2)
    assert (h1[:, 6:] == -1).all()


# ---------------------------------------------------------------------- beating
def test_beating():
    spades, clubs = 0, 2
    assert beats(card("7S"), card("6S"), clubs)  # higher, same suit
    assert not beats(card("6S"), card("7S"), clubs)
    assert not beats(card("AD"), card("6S"), clubs)  # other non-trump suit
    assert beats(card("6C"), card("AS"), clubs)  # any trump against a non-trump
    assert not beats(card("AS"), card("6C"), clubs)
    assert not beats(card("7C"), card("8C"), clubs)  # a trump only by a higher trump
    assert beats(card("8C"), card("7C"), clubs)
    assert beats(card("2S"), card("AH"), spades)
    assert not beats(card("2D"), card("AD"), clubs)
    assert beats(card("2D"), card("AD"), clubs, 1)  # OpenFool's option "a 2 beats an ace"
    assert not beats(card("2D"), card("KD"), clubs, 1)


def test_deuce_beats_ace_option_in_play():
    sp = rule_switches(2, 52, deuce_beats_ace=True)
    hands, talon, st = position(sp, ["AD 3S", "2D 5C"], "JH QH 10C")
    act(hands, talon, st, sp, "AD")
    assert legal(hands, st, sp) == ["2D", "5C", "take"]


def test_defender_may_beat_the_first_unbeaten_card_or_take():
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["9S 6D", "6S 10S 7D 6C JH"], "8H 7C")  # clubs trump
    assert legal(hands, st, sp) == ["9S", "6D"]  # the attacker leads any card
    act(hands, talon, st, sp, "9S")
    assert st[ST_PHASE] == PH_DEFEND and st[ST_CUR] == 1
    assert legal(hands, st, sp) == ["10S", "6C", "take"]


def test_throw_ins_must_match_a_rank_on_the_table():
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["9S 10D 6D 10H KH", "10S 7D 6C JH QH AH"], "8H 7C")
    act(hands, talon, st, sp, "9S")
    act(hands, talon, st, sp, "10S")  # 9 and 10 now on the table
    assert st[ST_PHASE] == PH_THROW and st[ST_CUR] == 0
    assert legal(hands, st, sp) == ["10D", "10H", "pass"]


# ---------------------------------------------------------------------- attack limit
def test_openfool_limit_is_min_of_5_and_defenders_hand_at_bout_start():
    sp = rule_switches(2, 36)
    _, _, st = position(sp, ["6S", "7S 8S 9S"], "8H 7C")
    assert st[ST_LIMIT] == 3
    _, _, st = position(sp, ["6S", "7S 8S 9S 10S JS QS KS"], "8H 7C")
    assert st[ST_LIMIT] == 5
    _, _, st = position(sp, ["6S", "7S 8S 9S 10S JS QS KS"], "8H 7C", discards="AS AD")
    assert st[ST_LIMIT] == 5  # OpenFool: 5 even after the first discard


def test_standard_limit_is_5_before_the_first_discard_then_6():
    sp = rule_switches(2, 36, limit="standard")
    _, _, st = position(sp, ["6S", "7S 8S 9S 10S JS QS KS"], "8H 7C")
    assert st[ST_LIMIT] == 5
    _, _, st = position(sp, ["6S", "7S 8S 9S 10S JS QS KS"], "8H 7C", discards="AS AD")
    assert st[ST_LIMIT] == 6
    _, _, st = position(sp, ["6S", "7S 8S"], "8H 7C", discards="AS AD")
    assert st[ST_LIMIT] == 2  # never more than the defender holds


def test_throw_ins_stop_at_the_limit_and_the_bout_ends():
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["6S 6D 6H 9D", "7S 7D QC"], "8H 9H 10H JH QH KH AH 7C")
    act(hands, talon, st, sp, "6S")
    act(hands, talon, st, sp, "7S")
    act(hands, talon, st, sp, "6D")
    act(hands, talon, st, sp, "7D")
    act(hands, talon, st, sp, "6H")
    assert st[ST_NA] == 3
    act(hands, talon, st, sp, "QC")  # beats the third card: limit reached -> bout over
    assert st[ST_PHASE] == PH_ATTACK and st[ST_ATT] == 1  # defence held: defender attacks


def test_throw_ins_while_the_defender_takes_count_against_the_limit():
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["6S 6D 6H 9D", "7S 8D QH"], "8H 7C")  # limit 3
    act(hands, talon, st, sp, "6S")
    act(hands, talon, st, sp, ACT_TAKE)
    assert st[ST_PHASE] == PH_THROW and st[ST_CUR] == 0
    assert legal(hands, st, sp) == ["6D", "6H", "pass"]
    act(hands, talon, st, sp, "6D")
    act(hands, talon, st, sp, "6H")  # third card: limit -> the defender takes all three
    assert st[ST_PHASE] == PH_ATTACK
    assert hand_names(hands, st, 1)[:3] == ["7S", "8D", "QH"]
    assert hand_names(hands, st, 1)[3:6] == ["6S", "6D", "6H"]


# ---------------------------------------------------------------------- who throws in
def _four(throw):
    sp = rule_switches(4, 36, throw=throw)
    return position(sp, ["6S", "7S", "8S", "9S"], "8H 7C", attacker=0)[2]


def test_openfool_throwers_are_the_defenders_two_neighbours():
    st = _four("openfool")
    assert st[ST_DEF] == 1
    assert list(st[ST_THR:ST_THR + st[ST_NTHR]]) == [0, 2]


def test_standard_throwers_are_every_opponent_attacker_first():
    st = _four("standard")
    assert list(st[ST_THR:ST_THR + st[ST_NTHR]]) == [0, 2, 3]


def test_players_out_are_skipped():
    sp = rule_switches(4, 36)
    hands, talon, st = position(sp, ["6S", "7S", "", "9S"], (), attacker=0, trump="C", out=[2])
    assert st[ST_DEF] == 1
    assert list(st[ST_THR:ST_THR + st[ST_NTHR]]) == [0, 3]  # 3 is the defender's neighbour now
    hands, talon, st = position(sp, ["6S", "", "8S", "9S"], (), attacker=0, trump="C", out=[1])
    assert st[ST_DEF] == 2


def test_two_players_only_the_attacker_throws():
    sp = rule_switches(2, 36, throw="standard")
    st = position(sp, ["6S", "7S"], "8H 7C")[2]
    assert list(st[ST_THR:ST_THR + st[ST_NTHR]]) == [0]


def test_throw_offers_go_round_until_everyone_passes():
    sp = rule_switches(3, 36, throw="standard")
    hands, talon, st = position(sp, ["6S 7D", "7S 8D QC KS AS", "6H 8C"], "8H 7C")
    act(hands, talon, st, sp, "6S")
    act(hands, talon, st, sp, "7S")
    assert st[ST_CUR] == 0
    act(hands, talon, st, sp, ACT_PASS)  # attacker
    assert st[ST_CUR] == 2
    act(hands, talon, st, sp, "6H")  # player 2 throws in; the defender answers
    assert st[ST_PHASE] == PH_DEFEND and st[ST_CUR] == 1
    act(hands, talon, st, sp, "QC")  # trump beats
    assert st[ST_PHASE] == PH_THROW and st[ST_CUR] == 0
    act(hands, talon, st, sp, "7D")  # the attacker is asked first again
    act(hands, talon, st, sp, "8D")
    act(hands, talon, st, sp, ACT_PASS)
    assert st[ST_CUR] == 2
    act(hands, talon, st, sp, ACT_PASS)  # everyone passed in a row: defence holds
    assert st[ST_PHASE] == PH_ATTACK and st[ST_ATT] == 1


# ---------------------------------------------------------------------- end of a bout
def test_defence_holds_defender_attacks_next():
    sp = rule_switches(3, 36)
    hands, talon, st = position(sp, ["6S 9D", "7S 8D QC", "6H 8H"], "10H JH QH KH AH 7C")
    act(hands, talon, st, sp, "6S")
    act(hands, talon, st, sp, "7S")
    act(hands, talon, st, sp, ACT_PASS)
    act(hands, talon, st, sp, ACT_PASS)
    assert st[ST_ATT] == 1 and st[ST_DEF] == 2


def test_defender_takes_the_next_player_attacks():
    sp = rule_switches(3, 36)
    hands, talon, st = position(sp, ["6S 9D", "7S 8D QC", "6H 8H"], "10H JH QH KH AH 7C")
    act(hands, talon, st, sp, "6S")
    act(hands, talon, st, sp, ACT_TAKE)
    act(hands, talon, st, sp, ACT_PASS)
    act(hands, talon, st, sp, ACT_PASS)
    assert st[ST_ATT] == 2 and st[ST_DEF] == 0


def test_taken_cards_join_the_hand_attack_then_its_beater():
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["6S 6D 8S", "KS 8D 9H JC"], (), trump="H")
    act(hands, talon, st, sp, "6S")
    act(hands, talon, st, sp, "KS")
    act(hands, talon, st, sp, "6D")
    act(hands, talon, st, sp, "8D")
    act(hands, talon, st, sp, "8S")
    act(hands, talon, st, sp, ACT_TAKE)  # 9H could beat, but the defender takes
    act(hands, talon, st, sp, ACT_PASS)
    assert hand_names(hands, st, 1) == ["9H", "JC", "6S", "KS", "6D", "8D", "8S"]
    assert st[ST_FOOL] == 1  # and player 0, out of cards with the talon empty, is out


def test_refill_openfool_in_seat_order():
    sp = rule_switches(3, 36)
    hands, talon, st = position(sp, ["6S 9D 9C 9H 10S JS", "7S 8D QC AC KC 10C", "JD 8S 6H 7H"],
                                "AS KS QS 7C", attacker=1)  # three cards above the bottom 7C
    act(hands, talon, st, sp, "7S")  # player 1 attacks player 2
    act(hands, talon, st, sp, "8S")
    act(hands, talon, st, sp, ACT_PASS)
    act(hands, talon, st, sp, ACT_PASS)
    # seat order: player 0 (full) draws nothing, player 1 draws AS, player 2 draws KS QS 7C
    assert hand_names(hands, st, 1)[-1] == "AS"
    assert hand_names(hands, st, 2)[-3:] == ["KS", "QS", "7C"]


def test_whoever_draws_the_face_up_trump_is_seen_to_hold_it():
    from gameai.durak.rules import ST_KNOWN

    sp = rule_switches(3, 36)
    hands, talon, st = position(sp, ["6S 9D 9C 9H 10S JS", "7S 8D QC AC KC 10C", "JD 8S 6H 7H"],
                                "AS KS QS 7C", attacker=1)
    act(hands, talon, st, sp, "7S")
    act(hands, talon, st, sp, "8S")
    act(hands, talon, st, sp, ACT_PASS)
    act(hands, talon, st, sp, ACT_PASS)
    assert st[ST_KNOWN + 2] == 1 << card("7C") and st[ST_KNOWN + 1] == 0


def test_refill_standard_attacker_first_defender_last():
    sp = rule_switches(3, 36, refill="standard")
    hands, talon, st = position(sp, ["6S 9D 9C 9H 10S", "7S 8D QC AC KC 10C", "JD 8S 6H 7H"],
                                "AS KS QS 7C", attacker=1)
    act(hands, talon, st, sp, "7S")
    act(hands, talon, st, sp, "8S")
    act(hands, talon, st, sp, ACT_PASS)
    act(hands, talon, st, sp, ACT_PASS)
    # attacker 1 draws AS, then player 0 (clockwise) KS, then defender 2 QS 7C
    assert hand_names(hands, st, 1)[-1] == "AS"
    assert hand_names(hands, st, 0)[-1] == "KS"
    assert hand_names(hands, st, 2)[-2:] == ["QS", "7C"]


def test_bout_ends_when_the_defender_runs_out_of_cards():
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["6S 6D 7C", "7S"], "8H 9C 10C JC QC KC 7H", trump=None)
    act(hands, talon, st, sp, "6S")
    act(hands, talon, st, sp, "7S")
    assert st[ST_PHASE] == PH_ATTACK and st[ST_ATT] == 1  # no throw-in offered


# ---------------------------------------------------------------------- the fool and draws
def test_last_player_holding_cards_is_the_fool():
    sp = rule_switches(3, 36)
    hands, talon, st = position(sp, ["6S", "7S AD", "KD"], (), trump="C")
    act(hands, talon, st, sp, "6S")  # player 0 runs out (talon empty)
    act(hands, talon, st, sp, "7S")
    act(hands, talon, st, sp, ACT_PASS)  # 0 has nothing left
    act(hands, talon, st, sp, ACT_PASS)  # neighbour 2 passes: defence holds
    assert st[ST_OUT] == 1 and st[ST_PLACE] == 0
    assert st[ST_ATT] == 1 and st[ST_DEF] == 2
    act(hands, talon, st, sp, "AD")  # 2 can't beat with KD
    act(hands, talon, st, sp, ACT_TAKE)  # limit min(5, 1 card) reached: the bout ends at once
    assert st[ST_PHASE] == PH_OVER and st[ST_FOOL] == 2
    assert list(st[ST_PLACE:ST_PLACE + 3]) == [0, 1, 2]


def test_everyone_out_in_the_same_bout_is_a_draw():
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["6S", "7S"], (), trump="C")
    act(hands, talon, st, sp, "6S")
    act(hands, talon, st, sp, "7S")
    assert st[ST_PHASE] == PH_OVER and st[ST_FOOL] == -1
    assert list(st[ST_PLACE:ST_PLACE + 2]) == [0, 0]


def test_no_draw_rule_makes_the_last_defender_the_fool():
    sp = rule_switches(2, 36, draw="no_draw")
    hands, talon, st = position(sp, ["6S", "7S"], (), trump="C")
    act(hands, talon, st, sp, "6S")
    act(hands, talon, st, sp, "7S")
    assert st[ST_FOOL] == 1 and list(st[ST_PLACE:ST_PLACE + 2]) == [0, 1]


def test_nobody_is_out_while_the_talon_has_cards():
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["6S", "7S 8S"], "9H 7C")
    act(hands, talon, st, sp, "6S")
    act(hands, talon, st, sp, "7S")
    act(hands, talon, st, sp, ACT_PASS)
    assert st[ST_OUT] == 0 and hand_names(hands, st, 0) == ["9H", "7C"]


# ---------------------------------------------------------------------- transfer
def test_transfer_passes_the_attack_to_the_next_player():
    sp = rule_switches(3, 36, transfer=True)
    hands, talon, st = position(sp, ["6S 9D", "6D 8D QC", "6H 8H"], "10H JH QH KH AH 7C")
    act(hands, talon, st, sp, "6S")
    assert legal(hands, st, sp) == ["QC", "take", "transfer 6D"]
    act(hands, talon, st, sp, TRANSFER + 0)
    assert st[ST_ATT] == 1 and st[ST_DEF] == 2 and st[ST_NA] == 2 and st[ST_CUR] == 2
    assert st[ST_LIMIT] == 2  # min(5, the new defender's 2 cards)
    # 6H cannot go on: player 0 (next) holds 1 card, fewer than 3 attack cards
    assert legal(hands, st, sp) == ["take"]


def test_transfer_needs_enough_cards_and_nothing_beaten():
    sp = rule_switches(2, 36, transfer=True)
    hands, talon, st = position(sp, ["6S", "6D 8S"], "10H 7C")
    act(hands, talon, st, sp, "6S")
    assert "transfer 6D" not in legal(hands, st, sp)  # 2 attack cards, the attacker holds 0
    hands, talon, st = position(sp, ["6S 7S 6C", "6D 8S 7D"], "10H 7C")
    act(hands, talon, st, sp, "6S")
    assert "transfer 6D" in legal(hands, st, sp)
    act(hands, talon, st, sp, "8S")
    act(hands, talon, st, sp, "6C")
    assert not any(a.startswith("transfer") for a in legal(hands, st, sp))  # one beaten


def test_transfer_checks_differ_with_one_card_led():
    """Three players, 6S led by player 0 to player 1, who holds 6D; the next seat (2) holds
    five cards. Standard: attack cards after the transfer 1 + 1 = 2 <= min(5, 5): allowed.
    OpenFool: empty attack slots 6 - 1 = 5, and 5 < 5 is false: refused. With six cards in
    seat 2 OpenFool allows it (5 < 6)."""
    five = ["6S 9D", "6D 8D QC", "6H 8H 10S JS QS"]
    six = ["6S 9D", "6D 8D QC", "6H 8H 10S JS QS KS"]
    for check, hands_cards, allowed in (("standard", five, True), ("openfool", five, False),
                                        ("openfool", six, True), ("standard", six, True)):
        sp = rule_switches(3, 36, transfer=True, transfer_check=check)
        hands, talon, st = position(sp, hands_cards, "10H JH QH 7C")
        act(hands, talon, st, sp, "6S")
        assert ("transfer 6D" in legal(hands, st, sp)) == allowed, (check, hands_cards[2])


def _transferred_once(check, seat3):
    """Four players, hearts trump: 0 leads 6S to 1, 1 passes with 6D to 2 (seat 2 holds six
    cards, so both checks allow it: 2 <= min(5, 6); 6 - 1 = 5 < 6). Two cards on the table."""
    sp = rule_switches(4, 36, transfer=True, transfer_check=check)
    hands, talon, st = position(sp, ["6S 9D 10D JD", "6D 8D QC AC KC 10C",
                                     "6C 8H 10S JS QS KS", seat3], "10H JH QH 7H")
    act(hands, talon, st, sp, "6S")
    act(hands, talon, st, sp, TRANSFER + 0)
    assert st[ST_ATT] == 1 and st[ST_DEF] == 2 and st[ST_NA] == 2
    return hands, talon, st, sp


def test_transfer_checks_differ_with_two_cards_on_the_table():
    """Defender 2 holds 6C; the next seat (3) holds three cards. Standard: 2 + 1 = 3 <=
    min(5, 3): allowed. OpenFool: 6 - 2 = 4 empty slots, 4 < 3 false: refused (it needs five
    cards there: 4 < 5)."""
    for check, seat3, allowed in (("standard", "7S 8S 9S", True),
                                  ("openfool", "7S 8S 9S", False),
                                  ("openfool", "7S 8S 9S 7D AS", True)):
        hands, talon, st, sp = _transferred_once(check, seat3)
        assert ("transfer 6C" in legal(hands, st, sp)) == allowed, (check, seat3)


def test_transfer_checks_agree_with_three_cards_on_the_table():
    """A second transfer (2 -> 3, seat 3 holds five cards: 3 <= 5 and 4 < 5) leaves three 6s;
    seat 3 holds 6H, and the next seat (0) holds the 3 cards player 0 kept after leading.
    Standard: 3 + 1 = 4 > 3: refused; OpenFool: 6 - 3 = 3 < 3 false: refused. With four cards
    in seat 0 both allow (4 <= 4; 3 < 4). OpenFool's test needs 7 - k cards in the next hand
    with k cards on the table, the standard one k + 1: they agree only at k = 3, and as no
    rank has more than four cards OpenFool's is never the looser of the two."""
    for check in ("standard", "openfool"):
        for first, allowed in (("6S 9D 10D JD", False), ("6S 9D 10D JD QD", True)):
            sp = rule_switches(4, 36, transfer=True, transfer_check=check)
            hands, talon, st = position(sp, [first, "6D 8D QC AC KC 10C",
                                             "6C 8H 10S JS QS KS", "6H 7S 8S 9S AS"],
                                        "10H JH QH 7H")
            act(hands, talon, st, sp, "6S")
            act(hands, talon, st, sp, TRANSFER + 0)
            act(hands, talon, st, sp, TRANSFER + 0)
            assert st[ST_DEF] == 3 and st[ST_NA] == 3
            assert ("transfer 6H" in legal(hands, st, sp)) == allowed, (check, first)


def test_openfool_transfer_check_looks_at_the_next_seat_even_when_out():
    """OpenFool reads the hand size of the next seat round the table; a player who is out
    holds none, so no transfer past him under its check (the standard check looks at the next
    player still in)."""
    for check, allowed in (("standard", True), ("openfool", False)):
        sp = rule_switches(4, 36, transfer=True, transfer_check=check)
        hands, talon, st = position(sp, ["6S 9D 10D JD", "6D 8D QC AC KC 10C", "",
                                         "7S 8S 9S 10S AS KS"], (), trump="H", out=(2,))
        act(hands, talon, st, sp, "6S")
        assert ("transfer 6D" in legal(hands, st, sp)) == allowed, check


def test_no_transfer_unless_switched_on():
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["6S 7S 6C", "6D 8S 7D"], "10H 7C")
    act(hands, talon, st, sp, "6S")
    assert legal(hands, st, sp) == ["8S", "take"]


# ---------------------------------------------------------------------- bad parameters
@pytest.mark.parametrize("kwargs, message", [
    ({"n_players": 6}, "n_players"),
    ({"deck": 40}, "deck must be one of 24, 32, 36, 52"),
    ({"limit": "six"}, "limit must be one of openfool, standard"),
    ({"throw": "all"}, "throw must be one of"),
    ({"refill": "random"}, "refill must be one of"),
    ({"draw": "maybe"}, "draw must be one of draw, no_draw"),
    ({"transfer_check": "loose"}, "transfer_check must be one of standard, openfool"),
    ({"deck_rule": "big"}, "deck_rule must be one of openfool, plain"),
])
def test_bad_rule_switches(kwargs, message):
    with pytest.raises(ValueError, match=message):
        rule_switches(**{"n_players": 2, "deck": 36, **kwargs})
