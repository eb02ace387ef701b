"""The article's hand evaluator ("Writing AI for the Fool, Part 1"), as OpenFool computes it.

Spec ``specs/durak.md``, "The hand evaluator (article + current code)". The value of a hand is
the sum of separately truncated terms (Kotlin ``toInt``, i.e. toward zero):

1. Out of play (talon and hand empty): 30000, nothing else.
2. Per card: trunc(100 x relative rank value), + 1300 for a trump. Relative values:
   *article scale* (the article's table and OpenFool's old code): rank - 8, ace 6 (2 = -6 ...
   A = +6); *deck scale* (OpenFool's current code): with m = ranks in the deck / 2, ace -> m,
   other rank v -> v + m - 14 (36 cards: 6 = -3.5 ... A = +4.5).
3. Same-rank bonus: for each rank, trunc(max(relative value, 1) x [0, 0, 0.5, 0.75, 1.25][count]).
   The code does *not* multiply this by 100 (at most ~8 points); ``BONUS_X100`` gives the version
   the article's prose suggests, trunc(max(relative value, 1) x 100 x bonus).
4. Unbalanced hand: avg = (non-trump cards) / 3.0; for each non-trump suit
   dev = |(count - avg) / avg| (a double, computed first), subtract trunc(200 x dev). No non-trump
   cards: no penalty (the code's 0/0 = NaN truncates to 0).
5. Many cards: cardsInPlay = talon + sum of all hand sizes - size of the scored hand;
   ratio = hand / cardsInPlay with Kotlin's Int division (truncating toward zero - not Python's
   floor ``//``; cardsInPlay can be negative when the AI scores "hand + table"), 10 when
   cardsInPlay = 0; add trunc((0.25 - ratio) x 600). ``TRUE_DIVISION`` uses real division, the
   behaviour the article describes.

The hand-size array is the one the game passes, *not* updated for a hypothetical hand (spec,
"Decision rules"); callers therefore pass the sum of the current hand sizes (``in_hands``).

Switches are bits of ``flags``; the ``NO_*`` bits remove a term (ablations, beyond the article).
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
from numba import njit

#: Bump when the evaluator's behaviour changes: part of every cached result's key.
EVALUATOR_VERSION = "1"

RANK_MULTIPLIER = 100
TRUMP_BONUS = 13 * RANK_MULTIPLIER  # 1300
UNBALANCED_HAND_PENALTY = 200
MANY_CARDS_PENALTY = 600
OUT_OF_PLAY = 30000
SAME_RANK_BONUS = np.array([0.0, 0.0, 0.5, 0.75, 1.25])  # by number of cards of one rank

# --- flags ----------------------------------------------------------------------------
ARTICLE_SCALE = 1  # card values rank - 8 (ace 6) instead of the deck-scaled values
TRUE_DIVISION = 2  # many-cards ratio by real division instead of Kotlin Int division
BONUS_X100 = 4  # same-rank bonus x 100 (the article's intent) instead of as coded
NO_RANK_BONUS = 8  # ablation: drop term 3
NO_UNBALANCED = 16  # ablation: drop term 4
NO_MANY_CARDS = 32  # ablation: drop term 5
NO_TRUMP_BONUS = 64  # ablation: drop the +1300 of trumps
NO_CARD_VALUES = 128  # ablation: drop the 100 x relative value of each card

#: Names of the switches, for configs and tables.
FLAGS = {
    "article_scale": ARTICLE_SCALE,
    "true_division": TRUE_DIVISION,
    "bonus_x100": BONUS_X100,
    "no_rank_bonus": NO_RANK_BONUS,
    "no_unbalanced": NO_UNBALANCED,
    "no_many_cards": NO_MANY_CARDS,
    "no_trump_bonus": NO_TRUMP_BONUS,
    "no_card_values": NO_CARD_VALUES,
}


@njit(cache=True)
def relative_value(rank, n_ranks, flags):
    """Relative value of a rank (2..14, ace 14) on the article's or the deck's scale."""
    if flags & ARTICLE_SCALE:
        return 6.0 if rank == 14 else float(rank - 8)
    m = n_ranks / 2.0
    if rank == 14:
        return m
    return rank + m - 14.0


@njit(cache=True)
def card_points(c, trump, n_ranks, flags):
    """Term 2 for one card: trunc(100 x relative value) + 1300 for a trump."""
    pts = 0
    if not flags & NO_CARD_VALUES:
        pts += int(relative_value(c % 13 + 2, n_ranks, flags) * RANK_MULTIPLIER)
    if c // 13 == trump and not flags & NO_TRUMP_BONUS:
        pts += TRUMP_BONUS
    return pts


@njit(cache=True)
def kotlin_div(a, b):
    """Kotlin/Java Int division: truncates toward zero (Python's ``//`` floors)."""
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


@njit(cache=True)
def value_of_counts(points, rank_counts, suit_counts, n, trump, talon, in_hands, n_ranks, flags):
    """The evaluator from a hand's summary: ``points`` (sum of term 2), counts per rank index
    (rank - 2) and per suit, and its size ``n``. ``in_hands`` is the sum of all hand sizes."""
    if talon == 0 and n == 0:
        return OUT_OF_PLAY
    res = points
    if not flags & NO_RANK_BONUS:
        mult = 100.0 if flags & BONUS_X100 else 1.0
        for ri in range(13):
            cnt = rank_counts[ri]
            if cnt >= 2:
                v = relative_value(ri + 2, n_ranks, flags)
                res += int(max(v, 1.0) * mult * SAME_RANK_BONUS[cnt])
    if not flags & NO_UNBALANCED:
        non_trump = n - suit_counts[trump]
        if non_trump > 0:  # otherwise NaN in the code, truncated to 0
            avg = non_trump / 3.0
            for s in range(4):
                if s != trump:
                    dev = abs((suit_counts[s] - avg) / avg)
                    res -= int(UNBALANCED_HAND_PENALTY * dev)
    if not flags & NO_MANY_CARDS:
        in_play = talon + in_hands - n
        if in_play == 0:
            ratio = 10.0
        elif flags & TRUE_DIVISION:
            ratio = n / in_play
        else:
            ratio = float(kotlin_div(n, in_play))
        res += int((0.25 - ratio) * MANY_CARDS_PENALTY)
    return res


@njit(cache=True)
def summarize(hand, n, trump, n_ranks, flags, rank_counts, suit_counts):
    """Fill the per-rank and per-suit counts of ``hand[:n]``; return the sum of term 2."""
    rank_counts[:] = 0
    suit_counts[:] = 0
    points = 0
    for i in range(n):
        c = hand[i]
        rank_counts[c % 13] += 1
        suit_counts[c // 13] += 1
        points += card_points(c, trump, n_ranks, flags)
    return points


@njit(cache=True)
def hand_value(hand, n, trump, talon, in_hands, n_ranks, flags):
    """The evaluator on ``hand[:n]`` (card ids ``suit * 13 + rank - 2``)."""
    rc = np.zeros(13, dtype=np.int64)
    sc = np.zeros(4, dtype=np.int64)
    points = summarize(hand, n, trump, n_ranks, flags, rc, sc)
    return value_of_counts(points, rc, sc, n, trump, talon, in_hands, n_ranks, flags)


# ======================================================================================
# Python entry point (tests, notebooks, independent cases)
# ======================================================================================
def flags_for(scale: str = "deck", division: str = "int", rank_bonus: str = "code",
              drop: Iterable[str] = ()) -> int:
    """Flags from named switches: ``scale`` deck|article, ``division`` int|true,
    ``rank_bonus`` code|x100, ``drop`` any of rank_bonus, unbalanced, many_cards, trump_bonus,
    card_values."""
    choices = {"scale": ("deck", "article"), "division": ("int", "true"),
               "rank_bonus": ("code", "x100")}
    for name, value in (("scale", scale), ("division", division), ("rank_bonus", rank_bonus)):
        if value not in choices[name]:
            raise ValueError(f"{name} must be one of {', '.join(choices[name])}, got {value!r}")
    flags = 0
    if scale == "article":
        flags |= ARTICLE_SCALE
    if division == "true":
        flags |= TRUE_DIVISION
    if rank_bonus == "x100":
        flags |= BONUS_X100
    for term in drop:
        key = "no_" + term
        if key not in FLAGS:
            allowed = "rank_bonus, unbalanced, many_cards, trump_bonus, card_values"
            raise ValueError(f"drop must name terms from: {allowed}; got {term!r}")
        flags |= FLAGS[key]
    return flags


def _card_ids(hand) -> np.ndarray:
    from .rules import card

    ids = [card(c) if isinstance(c, str) else int(c) for c in
           (hand.split() if isinstance(hand, str) else hand)]
    return np.asarray(ids, dtype=np.int64)


def evaluate(hand, trump, cards_remaining: int, player_hands: Sequence[int], deck: int = 52,
             scale: str = "deck", division: str = "int", rank_bonus: str = "code",
             drop: Iterable[str] = ()) -> int:
    """``handValue(hand, trumpSuit, cardsRemaining, playerHands)`` of the spec, in Python.

    ``hand``: card names (``"QS QD 2C"`` or a list of ``"10H"``-style names or card ids);
    ``trump``: a suit letter (S, D, C, H) or index; ``player_hands``: every player's hand size
    (including the scored player's, as the game passes it); ``deck``: cards in the deck in play
    (only the deck scale uses it: ranks = deck / 4).
    """
    from .rules import SUITS

    ids = _card_ids(hand)
    t = SUITS.index(trump.upper()) if isinstance(trump, str) else int(trump)
    if deck % 4 or not 8 <= deck <= 52:
        raise ValueError(f"deck must be a multiple of 4 between 8 and 52, got {deck!r}")
    flags = flags_for(scale, division, rank_bonus, drop)
    return int(hand_value(ids, len(ids), t, int(cards_remaining), int(sum(player_hands)),
                          deck // 4, flags))
