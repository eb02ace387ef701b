"""Invariants over 100,000+ random games: cards conserved, only legal moves, exactly one fool or
a draw, games end. The sweep runs inside one compiled function so that it takes seconds."""

import numpy as np
from numba import njit

from gameai.durak.agents import agents_array, play_game
from gameai.durak.rules import (
    ACT_PASS,
    ACT_TAKE,
    MAX_ACTIONS,
    MAX_TURNS,
    PH_ATTACK,
    PH_DEFEND,
    PH_OVER,
    PH_THROW,
    SP_NCARDS,
    SP_NP,
    ST_CAPPED,
    ST_CUR,
    ST_DEF,
    ST_DISCARDS,
    ST_DRAWN,
    ST_FOOL,
    ST_GONE,
    ST_KNOWN,
    ST_LIMIT,
    ST_NA,
    ST_NB,
    ST_OUT,
    ST_PHASE,
    ST_PLACE,
    ST_SIZE,
    ST_TA,
    ST_TD,
    ST_TRUMP,
    ST_TURNS,
    TRANSFER,
    apply_action,
    beats,
    can_transfer,
    deal,
    legal_actions,
    new_arrays,
    random_action,
    rule_switches,
)

# error codes (the checker returns a count per code)
E_ACTOR_OUT, E_ILLEGAL, E_COUNT, E_CARDS, E_END, E_FOOL, E_TURNS = range(7)


@njit(cache=True)
def _all_cards_once(hands, talon, st, sp):
    """Every card of the deck is in exactly one place: a hand, the talon, the table, discards."""
    seen = np.int64(0)
    total = 0
    for p in range(sp[SP_NP]):
        for i in range(st[ST_SIZE + p]):
            seen |= np.int64(1) << hands[p, i]
            total += 1
    for i in range(st[ST_DRAWN], sp[SP_NCARDS]):
        seen |= np.int64(1) << talon[i]
        total += 1
    for i in range(st[ST_NA]):
        seen |= np.int64(1) << st[ST_TA + i]
        total += 1
        if i < st[ST_NB]:
            seen |= np.int64(1) << st[ST_TD + i]
            total += 1
    gone = st[ST_GONE]
    if seen & gone:
        return False
    for p in range(sp[SP_NP]):  # cards seen taken are still in the taker's hand
        mine = np.int64(0)
        for i in range(st[ST_SIZE + p]):
            mine |= np.int64(1) << hands[p, i]
        if st[ST_KNOWN + p] & ~mine:
            return False
    deck = np.int64(0)
    for i in range(sp[SP_NCARDS]):
        deck |= np.int64(1) << talon[i]
    return (seen | gone) == deck and total + st[ST_DISCARDS] == sp[SP_NCARDS]


@njit(cache=True)
def _legal(hands, st, sp, a):
    """An independent check of one action against the rules."""
    p = st[ST_CUR]
    size = st[ST_SIZE + p]
    ph = st[ST_PHASE]
    trump = st[ST_TRUMP]
    if ph == PH_ATTACK:
        return 0 <= a < size and st[ST_NA] == 0
    if ph == PH_DEFEND:
        if p != st[ST_DEF]:
            return False
        if a == ACT_TAKE:
            return True
        if a >= TRANSFER:
            i = a - TRANSFER
            return (sp[7] == 1 and st[ST_NB] == 0 and 0 <= i < size
                    and hands[p, i] % 13 == st[ST_TA] % 13)
        return 0 <= a < size and beats(hands[p, a], st[ST_TA + st[ST_NB]], trump, sp[8])
    if ph == PH_THROW:
        if a == ACT_PASS:
            return True
        if not (0 <= a < size) or st[ST_NA] >= st[ST_LIMIT] or p == st[ST_DEF]:
            return False
        r = hands[p, a] % 13
        for i in range(st[ST_NA]):
            if st[ST_TA + i] % 13 == r or (i < st[ST_NB] and st[ST_TD + i] % 13 == r):
                return True
        return False
    return False


@njit(cache=True)
def _expected_count(hands, st, sp):
    """How many legal actions the rules allow, counted independently of legal_actions."""
    p = st[ST_CUR]
    size = st[ST_SIZE + p]
    if st[ST_PHASE] == PH_ATTACK:
        return size
    k = 1  # take, or pass
    for i in range(size):
        if st[ST_PHASE] == PH_DEFEND:
            k += beats(hands[p, i], st[ST_TA + st[ST_NB]], st[ST_TRUMP], sp[8])
            k += can_transfer(hands, st, sp, i)
        elif st[ST_NA] < st[ST_LIMIT]:
            r = hands[p, i] % 13
            for j in range(st[ST_NA]):
                if st[ST_TA + j] % 13 == r or (j < st[ST_NB] and st[ST_TD + j] % 13 == r):
                    k += 1
                    break
    return k


@njit(cache=True)
def check_random_games(sp, n_games, rng):
    """Play ``n_games`` RandomAI games, checking every action; returns (errors by code, capped)."""
    err = np.zeros(7, dtype=np.int64)
    capped = 0
    hands, talon, st = new_arrays(sp)
    mv = np.empty(MAX_ACTIONS, dtype=np.int64)
    n = sp[SP_NP]
    for _ in range(n_games):
        deal(hands, talon, st, sp, rng)
        if not _all_cards_once(hands, talon, st, sp):
            err[E_CARDS] += 1
        while st[ST_PHASE] != PH_OVER:
            p = st[ST_CUR]
            if st[ST_OUT + p] == 1:
                err[E_ACTOR_OUT] += 1
            if st[ST_PHASE] == PH_DEFEND and st[ST_NA] - st[ST_NB] > st[ST_SIZE + p]:
                err[E_COUNT] += 1  # more unbeaten cards than the defender can answer
            if legal_actions(hands, st, sp, mv) != _expected_count(hands, st, sp):
                err[E_ILLEGAL] += 1  # a legal action missing from the list, or one too many
            a = random_action(hands, st, sp, mv, rng)
            if not _legal(hands, st, sp, a):
                err[E_ILLEGAL] += 1
            apply_action(hands, talon, st, sp, a)
            if st[ST_NA] > st[ST_LIMIT] or st[ST_LIMIT] > 6:
                err[E_COUNT] += 1
            if st[ST_PHASE] == PH_ATTACK and st[ST_NA] == 0:
                if not _all_cards_once(hands, talon, st, sp):
                    err[E_CARDS] += 1
        if st[ST_TURNS] > MAX_TURNS:
            err[E_TURNS] += 1
        capped += st[ST_CAPPED]
        if st[ST_CAPPED] == 1:
            continue
        # the end: talon empty, at most one player holds cards, and he is the fool
        holders = 0
        for q in range(n):
            if st[ST_SIZE + q] > 0:
                holders += 1
        fool = st[ST_FOOL]
        if sp[SP_NCARDS] != st[ST_DRAWN] or holders > 1:
            err[E_END] += 1
        if fool >= 0:
            if st[ST_PLACE + fool] != n - 1:
                err[E_FOOL] += 1
            for q in range(n):
                if q != fool and not 0 <= st[ST_PLACE + q] < n - 1:
                    err[E_FOOL] += 1
            if holders == 1 and st[ST_SIZE + fool] == 0:
                err[E_FOOL] += 1
        else:
            if holders != 0 and sp[6] == 0:
                err[E_FOOL] += 1
            for q in range(n):
                if not 0 <= st[ST_PLACE + q] < n:
                    err[E_FOOL] += 1
    return err, capped


CONFIGS = [  # (players, deck, switches, games)
    (2, 36, {}, 30_000),
    (2, 24, {"transfer": True}, 10_000),
    (2, 52, {"limit": "standard", "refill": "standard", "deuce_beats_ace": True}, 8_000),
    (3, 36, {"throw": "standard"}, 12_000),
    (3, 32, {"transfer": True, "draw": "no_draw"}, 8_000),
    (4, 24, {}, 8_000),
    (4, 36, {"throw": "standard", "limit": "standard", "refill": "standard",
             "transfer": True}, 10_000),
    (5, 24, {}, 6_000),  # OpenFool's 28-card deck: dealt out, empty talon
    (5, 52, {"throw": "standard", "transfer": True}, 8_000),
    (4, 36, {"transfer": True, "transfer_check": "openfool"}, 6_000),
    (5, 24, {"deck_rule": "plain"}, 4_000),
]


def test_invariants_over_100k_random_games():
    assert sum(c[3] for c in CONFIGS) >= 100_000
    rng = np.random.default_rng(1941)
    for n, deck, kw, games in CONFIGS:
        sp = rule_switches(n, deck, **kw)
        err, capped = check_random_games(sp, games, rng)
        assert err.sum() == 0, (n, deck, kw, list(err))
        assert capped <= games // 10_000, (n, deck, kw, capped)  # endless games are rare


@njit(cache=True)
def _fool_counts(sp, ag, n_games, rng):
    hands, talon, st = new_arrays(sp)
    out = np.zeros(sp[SP_NP] + 2, dtype=np.int64)  # per seat, then no fool, then capped
    for _ in range(n_games):
        deal(hands, talon, st, sp, rng)
        play_game(hands, talon, st, sp, ag, rng)
        if st[ST_CAPPED]:
            out[sp[SP_NP] + 1] += 1
        elif st[ST_FOOL] < 0:
            out[sp[SP_NP]] += 1
        else:
            out[st[ST_FOOL]] += 1
    return out


def test_games_with_every_agent_end():
    rng = np.random.default_rng(5)
    from gameai.durak.agents import AGENTS

    for name in AGENTS:
        for n, deck in ((2, 24), (3, 36)):
            seats = [name] + ["SmallestAI", "RandomAI"][: n - 1]
            sp = rule_switches(n, deck, transfer=True)
            games = 3 if name.startswith("MC") else 200
            counts = _fool_counts(sp, agents_array(seats, 2), games, rng)
            assert counts.sum() == games
