"""The card decks of Frank's Zoo: the published deck and the paper's test decks.

Braun & Spronck (2009), §2 (Table 1, the predator matrix, restored in the chapter spec) and §5
(test decks of k = 2..13 types, four cards each, every type a predator of all types below it).

A deck is plain data: card counts per type, a ``beats`` matrix and the indices of the three
card types with special rules. The engine (``rules.py``) only sees these arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

#: Names of the thirteen types of the published deck, in engine order.
ORIGINAL_TYPES = (
    "whale", "elephant", "crocodile", "polar bear", "lion", "seal", "fox",
    "perch", "hedgehog", "fish", "mouse", "mosquito", "chameleon",
)

#: Table 1 of the paper: "X is beaten by" (same number of cards). 29 edges.
ORIGINAL_BEATEN_BY = {
    "whale": (),
    "elephant": ("mouse",),
    "crocodile": ("elephant",),
    "polar bear": ("whale", "elephant"),
    "lion": ("elephant",),
    "seal": ("whale", "polar bear"),
    "fox": ("elephant", "crocodile", "polar bear", "lion"),
    "perch": ("whale", "crocodile", "polar bear", "seal"),
    "hedgehog": ("fox",),
    "fish": ("whale", "crocodile", "seal", "perch"),
    "mouse": ("crocodile", "polar bear", "lion", "seal", "fox", "hedgehog"),
    "mosquito": ("hedgehog", "fish", "mouse"),
    "chameleon": (),
}

TEST_DECK_SIZES = tuple(range(2, 14))
DECK_NAMES = tuple(f"test{k}" for k in TEST_DECK_SIZES) + ("original",)


@dataclass(frozen=True)
class Deck:
    """A Frank's Zoo deck as the engine needs it.

    ``beats[a, b]`` is true when a move of type ``a`` defeats a move of type ``b`` with the
    same number of cards (predator defeat). ``elephant``, ``mosquito`` and ``chameleon`` are
    type indices, or -1 when the deck has no such card (the test decks).
    """

    name: str
    type_names: tuple[str, ...]
    counts: np.ndarray
    beats: np.ndarray
    elephant: int = -1
    mosquito: int = -1
    chameleon: int = -1

    @property
    def n_types(self) -> int:
        return len(self.type_names)

    @property
    def n_cards(self) -> int:
        return int(self.counts.sum())

    @property
    def label(self) -> str:
        """Short label for figures: the number of types, or 'original'."""
        return "original" if self.name == "original" else str(self.n_types)


def original_deck() -> Deck:
    """The published 60-card deck: 11 animals x 5, 4 mosquitoes, 1 chameleon."""
    index = {name: i for i, name in enumerate(ORIGINAL_TYPES)}
    n = len(ORIGINAL_TYPES)
    beats = np.zeros((n, n), dtype=np.bool_)
    for prey, predators in ORIGINAL_BEATEN_BY.items():
        for predator in predators:
            beats[index[predator], index[prey]] = True
    counts = np.full(n, 5, dtype=np.int64)
    counts[index["mosquito"]] = 4
    counts[index["chameleon"]] = 1
    return Deck(
        name="original",
        type_names=ORIGINAL_TYPES,
        counts=counts,
        beats=beats,
        elephant=index["elephant"],
        mosquito=index["mosquito"],
        chameleon=index["chameleon"],
    )


def make_test_deck(k: int) -> Deck:
    """The paper's test deck with ``k`` types (§5): 4 cards each, type i beats every j < i.

    Type 0 is the weakest, as type 1 is in the paper's Table 4.
    """
    if not isinstance(k, (int, np.integer)) or not 2 <= k <= 13:
        raise ValueError(f"test deck size k must be an int in 2..13, got {k!r}")
    k = int(k)
    beats = np.tril(np.ones((k, k), dtype=np.bool_), -1)  # beats[a, b] iff a > b
    return Deck(
        name=f"test{k}",
        type_names=tuple(f"type {i + 1}" for i in range(k)),
        counts=np.full(k, 4, dtype=np.int64),
        beats=beats,
    )


@lru_cache(maxsize=None)
def get_deck(name: str) -> Deck:
    """Deck by name: ``"original"`` or ``"test2"`` … ``"test13"``.

    Cached: experiments look a deck up once per game. Treat its arrays as read-only.
    """
    if name == "original":
        return original_deck()
    if isinstance(name, str) and name.startswith("test") and name[4:].isdigit():
        k = int(name[4:])
        if 2 <= k <= 13:
            return make_test_deck(k)
    raise ValueError(f"unknown deck {name!r}; allowed: {', '.join(DECK_NAMES)}")
