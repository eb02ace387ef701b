"""The players on hand-made positions: OpenFool's decision rules (spec, "Decision rules"), the
baselines, and the Monte Carlo player (beyond the article)."""

import numpy as np
import pytest

from gameai.durak.agents import (
    AGENTS,
    agent_action,
    agent_row,
    determinise,
    unseen_cards,
)
from gameai.durak.evaluation import evaluate
from gameai.durak.rules import (
    ACT_PASS,
    ACT_TAKE,
    MAX_ACTIONS,
    PH_ATTACK,
    ST_CUR,
    ST_SIZE,
    TRANSFER,
    apply_action,
    card,
    card_name,
    fill_deck,
    hand_names,
    legal_actions,
    position,
    rule_switches,
)


def decide(name, hands, talon, st, sp, budget=20, seed=0):
    """The agent's action, as a card name, "take", "pass" or "transfer <card>"."""
    mv = np.empty(MAX_ACTIONS, dtype=np.int64)
    k = legal_actions(hands, st, sp, mv)
    ag = np.stack([agent_row(name, budget)] * sp[0])
    a = agent_action(ag, st[ST_CUR], hands, talon, st, sp, mv, k, np.random.default_rng(seed))
    assert a in list(mv[:k])
    names = hand_names(hands, st, st[ST_CUR])
    if a == ACT_TAKE:
        return "take"
    if a == ACT_PASS:
        return "pass"
    if a >= TRANSFER:
        return "transfer " + names[a - TRANSFER]
    return names[a]


def play(hands, talon, st, sp, name):
    p = st[ST_CUR]
    apply_action(hands, talon, st, sp, hand_names(hands, st, p).index(name))


def hv(hand, trump, talon, sizes, deck=36):
    return evaluate(hand, trump, talon, sizes, deck=deck)


def attack_bonus(card_text, hand):
    """round(A[n] x oldBase(rank) x 100), A = [0, 0, 1, 1.5, 2.5], oldBase = rank - 8 (ace 6)."""
    rank = card(card_text) % 13 + 2
    n = sum(card(c) % 13 + 2 == rank for c in hand.split())
    base = 6 if rank == 14 else rank - 8
    return round([0, 0, 1.0, 1.5, 2.5][n] * base * 100)


def without(hand, c):
    cs = hand.split()
    cs.remove(c)
    return " ".join(cs)


# ---------------------------------------------------------------------- EvalAI: attack
def test_opening_attack_maximises_hv_without_the_card_plus_rank_bonus():
    sp = rule_switches(2, 36)
    hand = "KS KD 7H 9C AC"  # trump clubs (bottom 7C); the size array stays [5, 6], talon 2
    hands, talon, st = position(sp, [hand, "6S 6D 8S 8D 10H JH"], "QH 7C")
    scores = {c: hv(without(hand, c), "C", 2, [5, 6]) + attack_bonus(c, hand)
              for c in hand.split()}
    # KS: HV(KD 7H 9C AC) + round(1.0 x 5 x 100) = 2850 + 500 = 3350 (a pair of kings);
    # 7H: HV(KS KD 9C AC) + 0 = 3451 - shedding the 7 (-250) is worth more than the pair bonus
    assert scores["KS"] == hv("KD 7H 9C AC", "C", 2, [5, 6]) + 500 == 3350
    assert scores["7H"] == 3451
    best = max(scores.values())
    first_best = next(c for c in hand.split() if scores[c] == best)
    assert first_best == "7H"
    assert decide("EvalAI", hands, talon, st, sp) == "7H"


def test_attack_ties_go_to_the_card_that_entered_the_hand_first():
    sp = rule_switches(2, 36)
    # 6S and 6D are interchangeable for the evaluator: equal scores
    for hand, first in (("6S 6D 9H", "6S"), ("6D 6S 9H", "6D")):
        hands, talon, st = position(sp, [hand, "7S 8S 10H JH QH KH"], "AH 7C")
        assert decide("EvalAI", hands, talon, st, sp) == first


# ---------------------------------------------------------------------- EvalAI: defence
def _defence(defender_hand, talon_cards, attacker_hand="KS 6C", lead="KS"):
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, [attacker_hand, defender_hand], talon_cards)
    play(hands, talon, st, sp, lead)
    assert st[ST_CUR] == 1
    return hands, talon, st, sp


def test_defence_beats_when_the_loss_is_under_800():
    # attack KS; the defender's candidates are AS and the trump 7H (hearts trump)
    hands, talon, st, sp = _defence("AS 7H 6D 8D 9C 10C", "JD QD KD AD JC QC KC AH")
    sizes, left = [1, 6], 8
    cur = hv("AS 7H 6D 8D 9C 10C", "H", left, sizes)
    best = max(hv("7H 6D 8D 9C 10C", "H", left, sizes), hv("AS 6D 8D 9C 10C", "H", left, sizes))
    assert best == hv("7H 6D 8D 9C 10C", "H", left, sizes)  # giving up AS hurts less
    assert cur - best < 800
    # cur = 1000 (450 - 250 + 1300 - 350 - 150 - 50 + 50) + 0 - 158 (suits S 1, D 2, C 2 of
    #   avg 5/3: 80 + 39 + 39) + 150 = 992
    # beat with AS: HV(7H 6D 8D 9C 10C) = 550 - 400 (S 0, D 2, C 2 of avg 4/3) + 150 = 300
    # beat with 7H: HV(AS 6D 8D 9C 10C) = -50 - 158 + 150 = -58
    # 992 - 300 = 692 < 800 -> beat with AS
    assert (cur, best, hv("AS 6D 8D 9C 10C", "H", left, sizes)) == (992, 300, -58)
    assert decide("EvalAI", hands, talon, st, sp) == "AS"


def test_defence_takes_when_only_a_costly_trump_beats_and_the_talon_is_long():
    # only the trump ace beats; 8 cards in the talon
    hands, talon, st, sp = _defence("AH 6D 7D 8C 9C 10D", "JD QD KD AD JC QC KC 7H")
    sizes, left = [1, 6], 8
    cur = hv("AH 6D 7D 8C 9C 10D", "H", left, sizes)
    best = hv("6D 7D 8C 9C 10D", "H", left, sizes)
    take = hv("AH 6D 7D 8C 9C 10D KS", "H", left, sizes)
    assert cur - best >= 800 and take - best >= 2000 - 40 * left
    # cur = 1000 - 399 + 150 = 751; AH, the only card that beats KS: HV(6D 7D 8C 9C 10D) =
    #   -750 - 399 + 150 = -999; 751 + 999 = 1750 >= 800
    # take: HV(+ KS) = 1350 - 200 + 150 = 1300; 1300 + 999 = 2299 >= 2000 - 40 x 8 = 1680
    assert (cur, best, take) == (751, -999, 1300)
    assert decide("EvalAI", hands, talon, st, sp) == "take"


def test_defence_always_beats_when_the_talon_is_empty():
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["KS 6C", "AH 6D 7D 8C 9C 10D"], (), trump="H")
    play(hands, talon, st, sp, "KS")
    assert decide("EvalAI", hands, talon, st, sp) == "AH"


def test_defence_prefers_a_rank_already_on_the_table():
    """+300 for a defence card whose rank is on the table: 10D (a 10 beat the first card)
    instead of the cheaper 8D against the thrown-in 7D."""
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["7S 7D 6C", "10S 8D 10D QH KH AS"],
                                "JS QS KS JD QD KD AD JC QC KC AC 9H")  # hearts trump
    play(hands, talon, st, sp, "7S")
    play(hands, talon, st, sp, "10S")
    play(hands, talon, st, sp, "7D")  # thrown in; the table shows ranks 7 and 10
    assert st[ST_CUR] == 1
    h, left, sizes = "8D 10D QH KH AS", 12, [1, 5]
    plain = {c: hv(without(h, c), "H", left, sizes) for c in ("8D", "10D", "QH", "KH")}
    assert plain["8D"] == plain["10D"] + 200  # without the bonus 8D would go
    # 8D: HV(10D QH KH AS) = 3700 - 400 + 150 = 3450; 10D: HV(8D QH KH AS) = 3500 - 400 + 150
    #   = 3250, + 300 (a 10 is on the table) = 3550 > 3450
    assert (plain["8D"], plain["10D"]) == (3450, 3250)
    scores = {**plain, "10D": plain["10D"] + 300}
    assert max(scores, key=scores.get) == "10D"
    assert decide("EvalAI", hands, talon, st, sp) == "10D"


# ---------------------------------------------------------------------- EvalAI: throw-in
def throw_in_position(sp):
    """The attacker holds 6H (trump) and 9C; the table shows 6S beaten by 8S."""
    hands, talon, st = position(sp, ["6S 6H 9C", "8S 10C JC QC KC AC"],
                                "7S 9S 10S JS QS KS AS 7D 8D 9D 10D JD QD KD AD 7H")
    play(hands, talon, st, sp, "6S")
    play(hands, talon, st, sp, "8S")
    return hands, talon, st


def test_throw_in_only_when_the_loss_is_under_1200_minus_50_per_talon_card():
    sp = rule_switches(2, 36)
    hands, talon, st = throw_in_position(sp)
    assert st[ST_CUR] == 0
    left, sizes = 16, [2, 5]
    cur = hv("6H 9C", "H", left, sizes)
    best = hv("9C", "H", left, sizes) + attack_bonus("6H", "6H 9C")
    assert cur - best >= 1200 - 50 * left  # giving away a trump: not worth it
    # cur = HV(6H 9C) = 900 (-350 + 1300 - 50) - 800 (C 1, S 0, D 0 of avg 1/3) + 150 = 250
    # throw 6H: HV(9C) + round(A[1] x ...) = -50 - 800 + 150 + 0 = -700
    # 250 + 700 = 950 >= 1200 - 50 x 16 = 400 -> pass
    assert (cur, best) == (250, -700)
    assert decide("EvalAI", hands, talon, st, sp) == "pass"


def test_throw_in_a_cheap_card():
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["6S 6D 9C", "8S 10C JC QC KC AC"],
                                "7S 9S 10S JS QS KS AS 7D 8D 9D 10D JD QD KD AD 7H")
    play(hands, talon, st, sp, "6S")
    play(hands, talon, st, sp, "8S")
    left, sizes = 16, [2, 5]
    cur = hv("6D 9C", "H", left, sizes)
    best = hv("9C", "H", left, sizes) + attack_bonus("6D", "6D 9C")
    assert cur - best < 1200 - 50 * left
    # cur = HV(6D 9C) = -400 - 400 (D 1, C 1, S 0 of avg 2/3) + 150 = -650; throw 6D: -700
    # -650 + 700 = 50 < 400 -> throw 6D
    assert (cur, best) == (-650, -700)
    assert decide("EvalAI", hands, talon, st, sp) == "6D"


# ---------------------------------------------------------------------- EvalAI: transfer
def test_transfer_with_a_non_trump_of_the_attacking_rank():
    sp = rule_switches(3, 36, transfer=True)
    hands, talon, st = position(sp, ["6S 9D", "6D 6H 8D QC", "10S JS QS KS"],
                                "10H JH QH KH AH 7C")
    play(hands, talon, st, sp, "6S")
    left, sizes = 6, [1, 4, 4]
    cur = hv("6D 6H 8D QC", "C", left, sizes)
    v = max(hv("8D QC", "C", left, sizes), hv("8D QC", "C", left, sizes))
    assert v > cur - 400
    # cur = HV(6D 6H 8D QC) = 700 - 400 + 150 = 450 (pair bonus: trunc(1 x 0.5) = 0); without
    # the sixes (both non-trumps: the two hands are the same): HV(8D QC) = 1400 - 800 + 150 =
    # 750 > 450 - 400 = 50 -> transfer, with the first non-trump six
    assert (cur, v) == (450, 750)
    assert decide("EvalAI", hands, talon, st, sp) == "transfer 6D"


# ---------------------------------------------------------------------- SmallestAI
def test_smallest_leads_its_smallest_non_trump():
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["KS 6H 7D 9C", "8S"], "JH QH 10C")  # clubs trump
    assert decide("SmallestAI", hands, talon, st, sp) == "6H"
    hands, talon, st = position(sp, ["KC 6C", "8S"], "JH QH 10C")
    assert decide("SmallestAI", hands, talon, st, sp) == "6C"


def test_smallest_always_beats_when_possible_with_its_smallest_card():
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["9S 6H", "AS 10S 7C KD"], "JH QH 10C")
    play(hands, talon, st, sp, "9S")
    assert decide("SmallestAI", hands, talon, st, sp) == "10S"  # not the trump 7C, not AS
    hands, talon, st = position(sp, ["9S 6H", "8S 6D 7C"], "JH QH 10C")
    play(hands, talon, st, sp, "9S")
    assert decide("SmallestAI", hands, talon, st, sp) == "7C"  # only a trump beats
    hands, talon, st = position(sp, ["9S 6H", "8S 6D"], "JH QH 10C")
    play(hands, talon, st, sp, "9S")
    assert decide("SmallestAI", hands, talon, st, sp) == "take"


def test_smallest_throws_in_when_it_can():
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["9S 9D 9C 10H", "10S 6D 7S"], "JH QH 10C")
    play(hands, talon, st, sp, "9S")
    play(hands, talon, st, sp, "10S")
    assert decide("SmallestAI", hands, talon, st, sp) == "9D"  # below 10H; 9C is a trump


# ---------------------------------------------------------------------- RandomAI
def test_random_picks_every_legal_action():
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["9S 6H", "AS 10S 7C KD"], "JH QH 10C")
    play(hands, talon, st, sp, "9S")
    seen = {decide("RandomAI", hands, talon, st, sp, seed=s) for s in range(200)}
    assert seen == {"AS", "10S", "7C", "take"}


# ---------------------------------------------------------------------- Monte Carlo
def _endgame():
    """MC (seat 0) holds AS 6D, the opponent 7D; everything else is discarded; hearts trump.
    Leading 6D loses (7D beats it and the opponent is out); leading AS wins (the opponent
    takes, 6D is beaten by 7D, seat 0 is out and the opponent keeps AS)."""
    sp = rule_switches(2, 36)
    deck = np.empty(36, dtype=np.int64)
    fill_deck(deck, sp)
    used = {card("AS"), card("6D"), card("7D")}
    rest = [card_name(int(c)) for c in deck if int(c) not in used]
    return sp, position(sp, ["6D AS", "7D"], (), trump="H", discards=" ".join(rest))


def test_smallest_loses_the_endgame_and_mc_wins_it():
    sp, (hands, talon, st) = _endgame()
    assert decide("SmallestAI", hands, talon, st, sp) == "6D"
    assert decide("MC-AI", hands, talon, st, sp, budget=3) == "AS"
    assert decide("MC-AI-smallest", hands, talon, st, sp, budget=3) == "AS"
    assert decide("MC-AI-random", hands, talon, st, sp, budget=10) == "AS"


def test_determinisation_keeps_sizes_and_hides_only_unseen_cards():
    sp = rule_switches(3, 36)
    hands, talon, st = position(sp, ["6S 7S", "8S 9S 10S", "JS QS"], "KS AS 6D 7C",
                                discards="6H 7H")
    pool = set(unseen_cards(hands, talon, st, sp, 0))
    seen = {card(c) for c in "6S 7S 6H 7H 7C".split()}  # own, discarded, the trump at the bottom
    assert len(pool) == 36 - len(seen) and not pool & seen
    hands_d, talon_d = hands.copy(), talon.copy()
    rng = np.random.default_rng(3)
    determinise(hands, talon, st, sp, 0, np.array(sorted(pool)), rng, hands_d, talon_d)
    assert list(hands_d[0, :2]) == list(hands[0, :2])  # own hand untouched
    assert talon_d[-1] == card("7C")  # the visible bottom card stays
    dealt = list(hands_d[1, :3]) + list(hands_d[2, :2]) + list(talon_d[st[8]:35])
    assert len(set(dealt)) == 8 and set(dealt) <= pool


# ---------------------------------------------------------------------- registry
def test_registry_and_bad_names():
    assert {"RandomAI", "SmallestAI", "EvalAI", "MC-AI"} <= set(AGENTS)
    with pytest.raises(ValueError, match="unknown agent 'Clever'"):
        agent_row("Clever")
    with pytest.raises(ValueError, match="budget must be an int >= 1"):
        agent_row("MC-AI", 0)


# ---------------------------------------------------------------------- EvalAI, differential
def _spec_decision(hands, talon, st, sp, **switches):
    """EvalAI's decision re-derived from the spec's text with the Python evaluator."""
    from gameai.durak.rules import (PH_THROW, SP_NCARDS, SP_NP, ST_LIMIT, ST_NA, ST_NB, ST_PHASE,
                                    ST_TA, ST_TD, ST_TRUMP, beats, can_transfer, talon_left)

    p = st[ST_CUR]
    hand = [int(c) for c in hands[p, :st[ST_SIZE + p]]]
    trump, left, deck = int(st[ST_TRUMP]), int(talon_left(st, sp)), int(sp[SP_NCARDS])
    sizes = [int(x) for x in st[ST_SIZE:ST_SIZE + sp[SP_NP]]]

    def HV(cs):
        return evaluate(list(cs), trump, left, sizes, deck=deck, **switches)

    def minus(i):
        return hand[:i] + hand[i + 1:]

    def bonus(i):
        rank = hand[i] % 13 + 2
        n = sum(c % 13 + 2 == rank for c in hand)
        return round([0, 0, 1.0, 1.5, 2.5][n] * (6 if rank == 14 else rank - 8) * 100)

    na, nb = int(st[ST_NA]), int(st[ST_NB])
    table = [int(st[ST_TA + i]) for i in range(na)] + [int(st[ST_TD + i]) for i in range(nb)]
    ranks = {c % 13 for c in table}

    def argmax(cands, score):
        best, choice = None, None
        for i in cands:
            v = score(i)
            if best is None or v > best:
                best, choice = v, i
        return best, choice

    if st[ST_PHASE] == PH_ATTACK:
        return argmax(range(len(hand)), lambda i: HV(minus(i)) + bonus(i))[1]
    cur = HV(hand)
    if st[ST_PHASE] == PH_THROW:
        cands = [i for i in range(len(hand)) if hand[i] % 13 in ranks] if na < st[ST_LIMIT] else []
        best, i = argmax(cands, lambda i: HV(minus(i)) + bonus(i))
        return i if i is not None and cur - best < 1200 - 50 * left else ACT_PASS
    if sp[7]:
        r = int(st[ST_TA]) % 13
        ok = [i for i in range(len(hand)) if can_transfer(hands, st, sp, i)]
        if ok:
            v1 = HV([c for c in hand if c % 13 != r])
            v2 = HV([c for c in hand if not (c % 13 == r and c // 13 != trump)])
            if max(v1, v2) > cur - 400:
                plain = [i for i in ok if hand[i] // 13 != trump]
                return TRANSFER + (plain[0] if plain else ok[0])
    attack = int(st[ST_TA + nb])
    cands = [i for i in range(len(hand)) if beats(hand[i], attack, trump, sp[8])]
    best, i = argmax(cands, lambda i: HV(minus(i)) + (300 if hand[i] % 13 in ranks else 0))
    if i is None:
        return ACT_TAKE
    if cur - best < 800 or HV(hand + table) - best < 2000 - 40 * left or left == 0:
        return i
    return ACT_TAKE


@pytest.mark.parametrize("n, deck, rules, name, switches", [
    (2, 36, {}, "EvalAI", {}),
    (3, 52, {"transfer": True}, "EvalAI", {}),
    (4, 24, {}, "EvalAI", {}),
    (2, 36, {}, "EvalAI-truediv", {"division": "true"}),
    (3, 32, {}, "EvalAI-article", {"scale": "article"}),
    (2, 52, {"transfer": True}, "EvalAI-x100", {"rank_bonus": "x100"}),
    (3, 52, {"deuce_beats_ace": True, "throw": "standard"}, "EvalAI", {}),
    (2, 24, {}, "EvalAI-nomanycards", {"drop": ["many_cards"]}),
    (4, 36, {"transfer": True, "transfer_check": "openfool"}, "EvalAI", {}),
    (5, 24, {}, "EvalAI", {}),  # OpenFool's 28-card deck
])
def test_eval_ai_matches_the_spec_text_on_random_positions(n, deck, rules, name, switches):
    from gameai.durak.rules import PH_OVER, ST_PHASE, deal, new_arrays, random_action

    sp = rule_switches(n, deck, **rules)
    rng = np.random.default_rng(n)
    hands, talon, st = new_arrays(sp)
    mv = np.empty(MAX_ACTIONS, dtype=np.int64)
    ag = np.stack([agent_row(name)] * n)
    checked = 0
    while checked < 150:
        deal(hands, talon, st, sp, rng)
        while st[ST_PHASE] != PH_OVER:
            k = legal_actions(hands, st, sp, mv)
            if k > 1 and rng.random() < 0.3:
                a = agent_action(ag, st[ST_CUR], hands, talon, st, sp, mv, k, rng)
                assert a == _spec_decision(hands, talon, st, sp, **switches)
                checked += 1
            apply_action(hands, talon, st, sp, random_action(hands, st, sp, mv, rng))


def test_cards_seen_taken_stay_with_the_taker_in_every_determinisation():
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["6S 9D", "7D 8D QC"], "10H JH QH KH AH 7C")
    play(hands, talon, st, sp, "6S")
    apply_action(hands, talon, st, sp, ACT_TAKE)
    apply_action(hands, talon, st, sp, ACT_PASS)  # player 1 took 6S in public view
    assert st[ST_CUR] == 0 and "6S" in hand_names(hands, st, 1)
    pool = unseen_cards(hands, talon, st, sp, 0)
    assert card("6S") not in set(pool)
    rng = np.random.default_rng(0)
    for _ in range(20):
        hands_d, talon_d = hands.copy(), talon.copy()
        determinise(hands, talon, st, sp, 0, pool, rng, hands_d, talon_d)
        d = [card_name(int(c)) for c in hands_d[1, :st[ST_SIZE + 1]]]
        assert "6S" in d and len(set(d)) == len(d) == 5  # 7D 8D QC 6S + 7C drawn


def test_eval_ai_rarely_loses_to_random():
    """Not a claim of the article, a sanity check: over 400 two-player games (seats
    alternating) the evaluator player is the fool in under 10 % (about 1-2 % measured)."""
    from gameai.durak.experiments import game_task

    rng = np.random.default_rng(11)
    cfg = {"n_players": 2, "deck": 36, "seats": ["EvalAI", "RandomAI"]}
    rows = [game_task(cfg, i, rng) for i in range(400)]
    assert sum(r["fool_agent"] == "EvalAI" for r in rows) < 40
    assert sum(r["fool_agent"] == "RandomAI" for r in rows) > 320


# ---------------------------------------------------------------------- EvalAI: the spec's
# decision rules one by one, on hand-made positions with the arithmetic written out. Values
# are the evaluator's (deck scale, 36 cards: m = 4.5, card value (rank + m - 14) x 100, ace 450;
# +1300 a trump), split as cards + same-rank bonus + unbalanced penalty + many-cards term.
def _beat_or_take(talon_cards):
    """Seat 0 (12 cards) leads KS to seat 1, who holds JC QS AH 9H 7C QD; clubs trump."""
    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["KS JD AC KC 10C JS JH KH 9C KD AD AS",
                                     "JC QS AH 9H 7C QD"], talon_cards)
    play(hands, talon, st, sp, "KS")
    return hands, talon, st, sp


def test_defence_beats_through_the_take_clause():
    """cur - best >= 800, but HV(hand + table) - best < 2000 - 40 x talon: beat.

    Sizes [11, 6] (not updated), talon 8, trump clubs; many-cards term +150 throughout
    (6 / (8 + 17 - 6) = 0 in Int division).
      cur = HV(JC QS AH 9H 7C QD) = 3400 (150 + 250 + 450 - 50 - 250 + 250 + 2 x 1300)
            + 1 (pair of queens: trunc(2.5 x 0.5)) - 198 (suits 1, 1, 2 of avg 4/3: 49 + 49 + 100)
            + 150 = 3353
      beat with JC: HV(QS AH 9H 7C QD) = 1950 + 1 - 198 + 150 = 1903
      beat with 7C: HV(JC QS AH 9H QD) = 2350 + 1 - 198 + 150 = 2303  -> best = 2303 (7C)
      cur - best = 1050 >= 800: the first test fails
      take: HV(JC QS AH 9H 7C QD KS) = 3750 + 1 - 158 + 150 = 3743; 3743 - 2303 = 1440
      talon 8: 1440 < 2000 - 40 x 8 = 1680 -> beat with 7C
      talon 16: 1440 >= 2000 - 40 x 16 = 1360 -> take (the values are the same: +150 still)
    """
    hands, talon, st, sp = _beat_or_take("6S 7S 8S 6D 7D 8D 6H 8C")
    sizes, left = [11, 6], 8
    h = "JC QS AH 9H 7C QD"
    assert hv(h, "C", left, sizes) == 3353
    assert hv(without(h, "JC"), "C", left, sizes) == 1903
    assert hv(without(h, "7C"), "C", left, sizes) == 2303
    assert hv(h + " KS", "C", left, sizes) == 3743
    assert 3353 - 2303 >= 800 and 3743 - 2303 < 2000 - 40 * 8
    assert decide("EvalAI", hands, talon, st, sp) == "7C"
    hands, talon, st, sp = _beat_or_take("6S 7S 8S 9S 10S 6D 7D 8D 9D 10D 6C QC 6H 7H 8H 8C")
    sizes, left = [11, 6], 16
    assert hv(h, "C", left, sizes) == 3353 and hv(h + " KS", "C", left, sizes) == 3743
    assert hv(without(h, "7C"), "C", left, sizes) == 2303
    assert 3743 - 2303 >= 2000 - 40 * 16
    assert decide("EvalAI", hands, talon, st, sp) == "take"


def test_hand_sizes_are_not_updated_for_the_candidate_hand_and_throw_in_while_taking():
    """Seat 1 (all spades, trump spades) attacks seat 0 with the talon empty: KH beaten by 8S,
    KD thrown in, seat 0 takes. Seat 1 may throw KS (a K is on the table) while seat 0 takes.

    Sizes [4, 5] as the game passes them, talon 0; every card is a trump, no bonus, no
    unbalanced penalty (no non-trumps).
      cur = HV(10S AS QS KS 7S) = 7350 (50 + 450 + 250 + 350 - 250 + 5 x 1300)
            + trunc((0.25 - 5 / (0 + 9 - 5)) x 600) = 5 / 4 = 1 -> -450: 6900
      throw KS: HV(10S AS QS 7S) = 5700 + many-cards with the sizes NOT updated:
            4 / (0 + 9 - 4) = 4 / 5 = 0 -> +150: 5850; attack bonus A[1] = 0
      cur - best = 1050 < 1200 - 50 x 0 -> throw KS.
      (Had the sizes been updated to [4, 4]: 4 / (8 - 4) = 1 -> -450, 5250, 6900 - 5250 =
      1650 >= 1200 -> pass.)
    """
    from gameai.durak.rules import PH_THROW, ST_PHASE, ST_TAKING

    sp = rule_switches(2, 36)
    hands, talon, st = position(sp, ["QH 8D AC JH 8S", "KH KD 10S AS QS KS 7S"], (),
                                trump="S", attacker=1)
    play(hands, talon, st, sp, "KH")
    play(hands, talon, st, sp, "8S")
    play(hands, talon, st, sp, "KD")  # seat 1 throws in
    apply_action(hands, talon, st, sp, ACT_TAKE)  # seat 0 takes ...
    # ... and is not asked again this bout: only the throwers act until the bout ends
    assert st[ST_TAKING] == 1 and st[ST_PHASE] == PH_THROW and st[ST_CUR] == 1
    sizes, left = [4, 5], 0
    assert hv("10S AS QS KS 7S", "S", left, sizes) == 6900
    assert hv("10S AS QS 7S", "S", left, sizes) == 5850
    assert hv("10S AS QS 7S", "S", left, [4, 4]) == 5250  # what updated sizes would give
    assert 6900 - 5850 < 1200 - 50 * 0 <= 6900 - 5250
    assert decide("EvalAI", hands, talon, st, sp) == "KS"


def test_defence_ties_go_to_the_card_that_entered_the_hand_first():
    """8D led, beaten by QD, 8S thrown in: the defender (hearts trump, talon 8, sizes [4, 4])
    beats 8S with 9S or QS; a queen is on the table, so QS gets +300.
      beat with 9S: HV(QS 7C 10C) = 50 (250 - 250 + 50) - 400 (suits 1, 2, 0 of avg 1:
                    0 + 200 + 200) + 150 = -200; 9 not on the table: -200
      beat with QS: HV(9S 7C 10C) = -250 - 400 + 150 = -500; + 300 = -200
    A tie: the card that entered the hand first wins (cur = HV(QS 9S 7C 10C) = -250;
    -250 - (-200) < 800, so it beats)."""
    sp = rule_switches(2, 36)
    for defender, first in (("QD QS 9S 7C 10C", "QS"), ("QD 9S QS 7C 10C", "9S")):
        hands, talon, st = position(sp, ["8D 8S 6H 7H 10H QH", defender],
                                    "6S 7S 6D 7D 9D 10D 6C 8H")
        play(hands, talon, st, sp, "8D")
        play(hands, talon, st, sp, "QD")
        play(hands, talon, st, sp, "8S")
        sizes, left = [4, 4], 8
        assert hv("QS 7C 10C", "H", left, sizes) == -200
        assert hv("9S 7C 10C", "H", left, sizes) + 300 == -200
        assert hv("QS 9S 7C 10C", "H", left, sizes) == -250
        assert decide("EvalAI", hands, talon, st, sp) == first


def test_throw_in_ties_follow_the_order_taken_cards_joined_the_hand():
    """Taken cards join the hand as a0, d0, a1, ...; that order decides later ties.

    Three players, hearts trump, talon empty. Seat 0 leads one six at seat 1, who takes; seat 0
    throws in the other six; seat 1 now holds JC QC KC + the two sixes in the order they were
    played. Next bout seat 2 leads 6C at seat 0, who beats it with 9H; seat 2 passes and seat 1
    may throw a six (ranks 6 and 9 on the table):
      throw 6S: HV(JC QC KC 6D) + round(A[2] x (6 - 8) x 100) = HV(JC QC KC 6D) - 200
      throw 6D: HV(JC QC KC 6S) - 200, the same value (spades and diamonds swap places)
    A tie: the six taken first is thrown."""
    sp = rule_switches(3, 36)
    for lead, thrown in (("6S", "6D"), ("6D", "6S")):
        hands, talon, st = position(sp, [f"{lead} {thrown} 9H 10H", "JC QC KC", "6C 8C 7D KS"],
                                    (), trump="H", attacker=0)
        play(hands, talon, st, sp, lead)
        apply_action(hands, talon, st, sp, ACT_TAKE)
        play(hands, talon, st, sp, thrown)  # seat 0 throws in while seat 1 takes
        apply_action(hands, talon, st, sp, ACT_PASS)  # seat 0
        apply_action(hands, talon, st, sp, ACT_PASS)  # seat 2: the bout ends
        assert hand_names(hands, st, 1) == ["JC", "QC", "KC", lead, thrown]
        assert st[ST_CUR] == 2
        play(hands, talon, st, sp, "6C")
        play(hands, talon, st, sp, "9H")
        apply_action(hands, talon, st, sp, ACT_PASS)  # seat 2
        assert st[ST_CUR] == 1
        sizes = [1, 5, 3]
        cur = hv("JC QC KC 6S 6D", "H", 0, sizes)
        v_s = hv("JC QC KC 6D", "H", 0, sizes) - 200
        v_d = hv("JC QC KC 6S", "H", 0, sizes) - 200
        assert v_s == v_d and cur - v_s < 1200
        assert decide("EvalAI", hands, talon, st, sp) == lead


# ---------------------------------------------------------------------- diagnosis variants
def test_diagnosis_variants_change_only_their_decision():
    """``EvalAI/...`` (our diagnosis): one decision from SmallestAI's rule, the rest EvalAI.
    Three kings: EvalAI's opening attack adds A[3] x (13 - 8) x 100 = 750 for leading one of
    them and leads KH (its hearts then balance with 8H gone... the evaluator's choice); the
    smallest card is 8H, and HV(hand - c) alone picks 8H too."""
    sp = rule_switches(2, 36)
    hand = "KS KD KH 8H 9C AC"  # clubs trump
    hands, talon, st = position(sp, [hand, "6S 6D 7S 7D 10H JH"], "QH 7C")
    sizes, left = [6, 6], 2
    score = {c: hv(without(hand, c), "C", left, sizes) + attack_bonus(c, hand)
             for c in hand.split()}
    assert attack_bonus("KH", hand) == 750 and attack_bonus("8H", hand) == 0
    assert max(score, key=score.get) == "KH"
    plain = {c: hv(without(hand, c), "C", left, sizes) for c in hand.split()}
    assert max(plain, key=plain.get) == "8H"
    assert decide("EvalAI", hands, talon, st, sp) == "KH"
    assert decide("EvalAI/lead-smallest", hands, talon, st, sp) == "8H"
    assert decide("EvalAI/lead-nobonus", hands, talon, st, sp) == "8H"
    for other in ("EvalAI/throw-always", "EvalAI/throw-smallest", "EvalAI/beat-always",
                  "EvalAI/defend-smallest"):
        assert decide(other, hands, talon, st, sp) == "KH"


def test_diagnosis_throw_and_defence_variants():
    sp = rule_switches(2, 36)
    # throw-in: EvalAI passes rather than give away the trump 6H (see the throw-in test)
    hands, talon, st = throw_in_position(sp)
    assert decide("EvalAI", hands, talon, st, sp) == "pass"
    assert decide("EvalAI/throw-always", hands, talon, st, sp) == "6H"
    assert decide("EvalAI/throw-smallest", hands, talon, st, sp) == "6H"
    assert decide("EvalAI/beat-always", hands, talon, st, sp) == "pass"
    # defence: EvalAI takes rather than spend the trump ace (see the defence test)
    hands, talon, st, sp = _defence("AH 6D 7D 8C 9C 10D", "JD QD KD AD JC QC KC 7H")
    assert decide("EvalAI", hands, talon, st, sp) == "take"
    assert decide("EvalAI/beat-always", hands, talon, st, sp) == "AH"
    assert decide("EvalAI/defend-smallest", hands, talon, st, sp) == "AH"
    assert decide("EvalAI/throw-always", hands, talon, st, sp) == "take"
    # defence card: EvalAI beats KS with AS rather than the trump 7H; so does the smallest rule
    hands, talon, st, sp = _defence("AS 7H 6D 8D 9C 10C", "JD QD KD AD JC QC KC AH")
    assert decide("EvalAI/defend-smallest", hands, talon, st, sp) == "AS"


@pytest.mark.parametrize("n, deck, rules", [(2, 36, {}), (4, 36, {"transfer": True}),
                                            (3, 52, {"throw": "standard"})])
def test_random_playout_plays_the_move_loop_game(n, deck, rules):
    """``playout`` draws the random policy inline: from every position of random games it ends in
    the same state with the same draws as the loop that asks ``simple_action`` each time."""
    from gameai.durak.agents import KIND_RANDOM, playout, simple_action
    from gameai.durak.rules import PH_OVER, ST_PHASE, deal, new_arrays, random_action

    sp = rule_switches(n, deck, **rules)
    rng = np.random.default_rng(40 + n)
    hands, talon, st = new_arrays(sp)
    mv = np.empty(MAX_ACTIONS, dtype=np.int64)
    checked = 0
    for _ in range(6):
        deal(hands, talon, st, sp, rng)
        while st[ST_PHASE] != PH_OVER:
            ends = []
            for inline in (True, False):
                h, t, s = hands.copy(), talon.copy(), st.copy()
                r = np.random.default_rng(checked)
                if inline:
                    playout(h, t, s, sp, KIND_RANDOM, r)
                else:
                    while s[ST_PHASE] != PH_OVER:
                        k = legal_actions(h, s, sp, mv)
                        a = mv[0] if k == 1 else simple_action(KIND_RANDOM, 0, h, s, sp, mv, k, r)
                        apply_action(h, t, s, sp, a)
                ends.append((h.tolist(), t.tolist(), s.tolist(), r.random()))
            assert ends[0] == ends[1]
            checked += 1
            apply_action(hands, talon, st, sp, random_action(hands, st, sp, mv, rng))
    assert checked > 200
