"""Hand-made tarok positions for the tests (cards by name: 'I'..'XXI', 'Sk', 'HK', 'S10', ...)."""

import numpy as np
from numba import njit

from gameai.tarok import rules as R


def m(*names):
    return R.mask_of(names)


def position(hands, contract=R.THREE, decl=0, trick=(), lead=None, rules=0, tricks_done=None):
    """A play state with the given hands (lists of names, seat 0..2); ``trick`` = cards already
    played to the current trick, starting with ``lead`` (default: the declarer / forehand).
    Cards in nobody's hand are put on the opponents' pile; tricks_done follows the hand size."""
    masks = np.array([m(*h) for h in hands], dtype=np.int64)
    S = R.new_state(masks, np.full(6, -1, dtype=np.int64), contract, decl, rules)
    for i in range(6):
        S[R.S_TALON + i] = -1
    n_in_hand = max(len(h) for h in hands)
    done = R.N_TRICKS - n_in_hand if tricks_done is None else tricks_done
    S[R.S_TRICKNO] = done
    if lead is not None:
        S[R.S_LEAD] = lead
        S[R.S_TURN] = lead
    for name in trick:
        c = R.card_from_name(name)
        S[R.S_HAND + S[R.S_TURN]] |= 1 << c  # give it to the player first, then play it
        R.play(S, c)
    return S


def names(mask):
    return sorted(R.card_name(c) for c in R.cards_of(mask))


@njit(cache=True)
def _random_position(rng, contract, cards_left, out):
    hands, talon = R.deal(rng)
    decl = np.int64(rng.random() * 3)
    S = R.new_state(hands, talon, contract, decl, 0)
    k = R.TALON_TAKE[contract]
    if k:
        R.exchange(S, 0, R.random_discards(S, 0, rng))
    target = (16 - cards_left) * 3 + np.int64(rng.random() * 3)
    n = 0
    while S[R.S_DONE] == 0 and n < target:
        R.play(S, R.random_bit(R.legal_mask(S), rng))
        n += 1
    out[:] = S
    return S[R.S_DONE] == 0


def random_positions(n, cards_left, seed, contracts=(R.THREE, R.TWO, R.ONE, R.SOLO, R.KLOP,
                                                     R.BEGGAR)):
    rng = np.random.default_rng(seed)
    out = []
    S = np.zeros(R.S_LEN, dtype=np.int64)
    while len(out) < n:
        c = contracts[len(out) % len(contracts)]
        if _random_position(rng, c, cards_left, S):
            out.append(S.copy())
    return out
