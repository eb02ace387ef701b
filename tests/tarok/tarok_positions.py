"""Hand-made tarok positions for the tests (cards by name: 'I'..'XXI', 'Sk', 'HK', 'S10', ...)."""

import numpy as np

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
