"""Hand-made positions on the published deck, shared by the rules and agents tests."""

import numpy as np

from gameai.frankszoo.decks import ORIGINAL_TYPES, get_deck
from gameai.frankszoo.rules import rule_switches

ORIG = get_deck("original")
SP = rule_switches(ORIG)
T = {name: i for i, name in enumerate(ORIGINAL_TYPES)}


def hand(**cards):
    """A hand from keyword counts, e.g. ``hand(polar_bear=2, chameleon=1)``."""
    h = np.zeros(ORIG.n_types, dtype=np.int64)
    for name, n in cards.items():
        h[T[name.replace("_", " ")]] = n
    return h
