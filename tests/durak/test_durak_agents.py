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
    assert decide("EvalAI", hands, talon, st, sp) == "AS"


def test_defence_takes_when_only_a_costly_trump_beats_and_the_talon_is_long():
    # only the trump ace beats; 8 cards in the talon
    hands, talon, st, sp = _defence("AH 6D 7D 8C 9C 10D", "JD QD KD AD JC QC KC 7H")
    sizes, left = [1, 6], 8
    cur = hv("AH 6D 7D 8C 9C 10D", "H", left, sizes)
    best = hv("6D 7D 8C 9C 10D", "H", left, sizes)
    take = hv("AH 6D 7D 8C 9C 10D KS", "H", left, sizes)
    assert cur - best >= 800 and take - best >= 2000 - 40 * left
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
    scores = {**plain, "10D": plain["10D"] + 300}
    assert max(scores, key=scores.get) == "10D"
    assert decide("EvalAI", hands, talon, st, sp) == "10D"


# ---------------------------------------------------------------------- EvalAI: throw-in
def test_throw_in_only_when_the_loss_is_under_1200_minus_50_per_talon_card():
    sp = rule_switches(2, 36)
    # attacker holds 6D (cheap) and 6H (trump); the table shows 6S beaten by 8S
    hands, talon, st = position(sp, ["6S 6H 9C", "8S 10C JC QC KC AC"],
                                "7S 9S 10S JS QS KS AS 7D 8D 9D 10D JD QD KD AD 7H")
    play(hands, talon, st, sp, "6S")
    play(hands, talon, st, sp, "8S")
    assert st[ST_CUR] == 0
    left, sizes = 16, [2, 5]
    cur = hv("6H 9C", "H", left, sizes)
    best = hv("9C", "H", left, sizes) + attack_bonus("6H", "6H 9C")
    assert cur - best >= 1200 - 50 * left  # giving away a trump: not worth it
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
