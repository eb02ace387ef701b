"""Durak rules from hand-made positions (spec ``specs/durak.md``, "Rules").

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


def test_deck_enlarged_when_it_cannot_deal_six_each():
    assert deck_cards(4, 24) == 24  # exactly 4 x 6: empty talon
    assert deck_cards(5, 24) == 32  # 30 cards needed -> 7 ... A
    assert deck_cards(5, 36) == 36


def test_deal_six_each_trump_is_the_bottom_card():
    sp = rule_switches(3, 36)
    hands, talon, st = new_arrays(sp)
    deal(hands, talon, st, sp, np.random.default_rng(1))
    assert list(st[ST_SIZE:ST_SIZE + 3]) == [6, 6, 6]
    assert talon_left(st, sp) == 36 - 18
    assert st[ST_TRUMP] == talon[35] // 13
    dealt = set(hands[:, :6].ravel()) | set(talon[18:])
    assert len(dealt) == 36 and min(c % 13 + 2 for c in dealt) == 6


def test_first_attacker_holds_the_lowest_trump_else_player_0():
    sp = rule_switches(2, 36)
    hands, talon, st = new_arrays(sp)
    # dealt one card at a time, seats 0, 1, 0, 1, ...; bottom card 6H -> hearts trump
    talon[:] = np.array(cards("AS 9H KS 7H QS 8S JS 9S 10S 7S 6S 8H") + cards(
        "AD KD QD JD 10D 9D 8D 7D 6D AC KC QC JC 10C 9C 8C 7C 6C AH KH QH JH 10H 6H"))
    start_game(hands, talon, st, sp)
    assert hand_names(hands, st, 1) == ["9H", "7H", "8S", "9S", "7S", "8H"]
    assert st[ST_FIRST] == 1 and st[ST_ATT] == 1 and st[ST_DEF] == 0  # 7H is the lowest trump
    talon[:] = np.array(cards("AS KS QS JS 10S 9S 8S 7S 6S AD KD QD") + cards(
        "JD 10D 9D 8D 7D 6D AC KC QC JC 10C 9C 8C 7C 6C AH KH QH JH 10H 9H 8H 7H 6H"))
    start_game(hands, talon, st, sp)
    assert st[ST_FIRST] == 0  # nobody holds a heart


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
])
def test_bad_rule_switches(kwargs, message):
    with pytest.raises(ValueError, match=message):
        rule_switches(**{"n_players": 2, "deck": 36, **kwargs})
