"""Invariants over 12,000 random deals of every contract (spec; issue 9): cards conserved after
every card, only legal cards (a non-empty subset of the hand that follows suit / trumps when it
must), 16 tricks (beggar: until the declarer takes one), the two sides' counted points sum to 70
(klop: each pile counted on its own, 69-71 by the rounding of each pile), the running pile
values agree with a recount, and the scores are what the rules say (recomputed here in Python
from the final piles)."""

import numpy as np
from numba import njit

import gameai  # noqa: F401
from gameai.tarok import rules as R

N_DEALS = 12_000
COLS = 20  # contract, decl, ann, pts0..2, sc0..2, tricks0..2, mondlost, rules, trickno,
# bad x 1000 + sides' points, bonuses achieved x 4


@njit(cache=True)
def _conserved(S):
    m = np.int64(0)
    tot = 0
    for p in range(3):
        for x in (S[R.S_HAND + p], S[R.S_PILE + p]):
            tot += R.popcount(x)
            m |= x
    for p in range(3):
        if S[R.S_TRICK + p] >= 0:
            tot += 1
            m |= R.bit(S[R.S_TRICK + p])
    for i in range(6):
        if S[R.S_TALON + i] >= 0:
            tot += 1
            m |= R.bit(S[R.S_TALON + i])
    return tot == 54 and m == R.ALL_CARDS


@njit(cache=True)
def _legal_ok(S, legal):
    p = S[R.S_TURN]
    h = S[R.S_HAND + p]
    if legal == 0 or legal & ~h:
        return False
    if S[R.S_NT] == 0:
        return True
    ls = R.SUIT[S[R.S_TRICK + S[R.S_LEAD]]]
    if h & R.SUIT_MASK[ls]:
        return legal & ~R.SUIT_MASK[ls] == 0
    if h & R.TAROKS:
        return legal & ~R.TAROKS == 0
    return True


@njit(cache=True)
def _sweep(n, rng, out):
    for g in range(n):
        hands, talon = R.deal(rng)
        contract = np.int64(rng.random() * 6)
        decl = np.int64(rng.random() * 3)
        rules = np.int64(rng.random() * 4)
        S = R.new_state(hands, talon, contract, decl, rules)
        bad = 0
        k = R.TALON_TAKE[contract]
        if k:
            grp = np.int64(rng.random() * (6 // k))
            if not R.exchange(S, grp, R.random_discards(S, grp, rng)):
                bad += 1
        if contract != R.KLOP and contract != R.BEGGAR:
            S[R.S_ANN] = np.int64(rng.random() * 16)
        if not _conserved(S):
            bad += 1
        while S[R.S_DONE] == 0:
            legal = R.legal_mask(S)
            if not _legal_ok(S, legal):
                bad += 1
            R.play(S, R.random_bit(legal, rng))
            if not _conserved(S):
                bad += 1
        for p in range(3):
            m = S[R.S_PILE + p]
            if S[R.S_PTS3 + p] != 3 * R.raw_points(m) - 2 * R.popcount(m):
                bad += 1
        sc = R.scores(S)
        out[g, 0] = contract
        out[g, 1] = S[R.S_DECL]
        out[g, 2] = S[R.S_ANN]
        for p in range(3):
            out[g, 3 + p] = R.counted_points(S[R.S_PILE + p])
            out[g, 6 + p] = sc[p]
            out[g, 9 + p] = S[R.S_NTRICKS + p]
        out[g, 12] = S[R.S_MONDLOST]
        out[g, 13] = S[R.S_RULES]
        out[g, 14] = S[R.S_TRICKNO]
        sides = R.counted_points(S[R.S_PILE + max(S[R.S_DECL], 0)])
        if S[R.S_DECL] >= 0:
            d = S[R.S_DECL]
            sides = R.counted_points(S[R.S_PILE + d]) + R.counted_points(
                S[R.S_PILE + (d + 1) % 3] | S[R.S_PILE + (d + 2) % 3])
        out[g, 15] = bad * 1000 + sides
        if contract != R.KLOP and contract != R.BEGGAR:
            out[g, 16:20] = R.bonuses_achieved(S)


def _expected_scores(row):
    contract, decl, ann = row[0], row[1], row[2]
    pts, tricks = row[3:6], row[9:12]
    exp = np.zeros(3, dtype=np.int64)
    if contract == R.KLOP:
        if row[13] & R.RULE_MODERN_KLOP:
            ext = [(-70 if x > 35 else (70 if x == 0 else None)) for x in pts]
            if any(e is not None for e in ext):
                return np.array([e or 0 for e in ext])
            return -pts
        return np.array([-70 if x >= 35 else -x for x in pts])
    if contract == R.BEGGAR:
        exp[decl] = 70 if tricks[decl] == 0 else -70
        return exp
    return None  # normal contracts: checked separately (bonuses need the piles)


def test_random_deals_invariants():
    out = np.zeros((N_DEALS, COLS), dtype=np.int64)
    _sweep(N_DEALS, np.random.default_rng(2024), out)
    bad = out[:, 15] // 1000
    assert bad.sum() == 0
    contract = out[:, 0]
    normal = (contract >= R.THREE) & (contract <= R.SOLO)
    assert (out[normal, 15] % 1000 == 70).all()  # the two sides sum to 70
    assert (out[normal, 14] == 16).all()
    klop = contract == R.KLOP
    assert set(np.unique(out[klop, 3:6].sum(axis=1))) <= {69, 70, 71}
    beggar = contract == R.BEGGAR
    assert ((out[beggar, 14] == 16) | (out[beggar, 9:12].max(axis=1) > 0)).all()
    for row in out:
        exp = _expected_scores(row)
        if exp is not None:
            assert list(row[6:9]) == list(exp), row
    # normal contracts: opponents score nothing but the mond penalty
    for row in out[normal]:
        d = row[1]
        for p in range(3):
            if p != d:
                assert row[6 + p] == (-21 if row[12] == p else 0)
    # the declarer's score from his counted points, contract value, bonuses and the mond
    for row in out[normal]:
        d = row[1]
        dpts = row[3 + d]  # the declarer's own pile
        value = int(R.CONTRACT_VALUE[row[0]])
        sc = dpts - 35 + (value if dpts > 35 else -value)
        for i in range(4):
            v = int(R.BONUS_VALUE[i])
            if row[2] & (1 << i):
                sc += v if row[16 + i] == 1 else -v
            else:
                sc += row[16 + i] * v // 2
        sc -= 21 if row[12] == d else 0
        assert row[6 + d] == sc, row
    for c in range(6):  # every contract was played
        assert (contract == c).sum() > 1000
