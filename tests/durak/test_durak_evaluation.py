"""The article's hand evaluator: worked examples computed by hand from the article and
OpenFool's code (the chapter's "The evaluator" paragraph), the arithmetic written out next to each check.

Notation: trunc = Kotlin toInt (toward zero). Card values on the article scale: rank - 8, ace 6
(x 100); on the deck scale with m = ranks / 2: ace m, rank v -> v + m - 14 (52 cards: m = 6.5,
36 cards: m = 4.5). Suits: S, D, C, H.
"""

import pytest

from gameai.durak.evaluation import evaluate, kotlin_div
from gameai.durak.paper import ARTICLE_HANDS


def test_out_of_play_only_with_empty_hand_and_talon():
    assert evaluate("", "D", 0, [0, 3]) == 30000
    # empty hand, talon 10: no card terms, no suit penalty (0 non-trumps), many cards:
    # cardsInPlay = 10 + 3 - 0 = 13, ratio 0 / 13 = 0 -> trunc(0.25 x 600) = 150
    assert evaluate("", "D", 10, [0, 3]) == 150


def test_article_almost_perfect_hand_end_of_game():
    """2C 2S QD QH QC QS, trump diamonds, talon empty, opponent holds 2 cards (52 cards)."""
    hand, args = ARTICLE_HANDS["almost_perfect"], ("D", 0, [6, 2])
    # unbalanced: 5 non-trumps, avg = 5/3; S: |(2 - 5/3) / (5/3)| = 0.19999999999999996
    #   -> trunc(39.99999999999999) = 39; H: 0.4 -> 80; C: as S -> 39; total 158
    # many cards: cardsInPlay = 0 + 8 - 6 = 2, ratio 6 / 2 = 3 -> (0.25 - 3) x 600 = -1650
    # article scale: cards -600 - 600 + (400 + 1300) + 400 + 400 + 400 = 1700
    #   bonus: twos max(-6, 1) x 0.5 = 0.5 -> 0; queens 4 x 1.25 = 5 -> 5
    assert evaluate(hand, *args, scale="article") == 1700 + 0 + 5 - 158 - 1650  # -103
    # deck scale (m = 6.5): 2 -> -5.5, Q -> 4.5: cards -550 x 2 + 450 x 4 + 1300 = 2000
    #   bonus: twos 1 x 0.5 -> 0; queens 4.5 x 1.25 = 5.625 -> 5
    assert evaluate(hand, *args) == 2000 + 0 + 5 - 158 - 1650  # 197
    # bonus x 100: twos 1 x 100 x 0.5 = 50; queens 4.5 x 100 x 1.25 = 562.5 -> 562
    assert evaluate(hand, *args, rank_bonus="x100") == 2000 + 50 + 562 - 158 - 1650  # 804
    # true division: 6 / 2 = 3.0, the same
    assert evaluate(hand, *args, division="true") == 197


def test_article_unsuccessful_and_better_hands_score_the_same():
    """The article calls the second hand "much better"; the evaluator scores both alike."""
    args = ("D", 20, [6, 6])  # talon 20: cardsInPlay = 20 + 12 - 6 = 26, 6 / 26 = 0 -> +150
    # 5S JS AS 6D 9D KD, article scale: -300 + 300 + 600 + (-200 + 1300) + (100 + 1300)
    #   + (500 + 1300) = 4900; 3 non-trumps, avg 1: S |3-1| = 2 -> 400, C 1 -> 200, H -> 200
    assert evaluate(ARTICLE_HANDS["very_unsuccessful"], *args, scale="article") == \
        4900 - 800 + 150  # 4250
    # 5S 10C AS 3D 9D KD: -300 + 200 + 600 + (-500 + 1300) + 1400 + 1800 = 4500;
    #   S 2 -> 200, C 1 -> 0, H 0 -> 200
    assert evaluate(ARTICLE_HANDS["much_better"], *args, scale="article") == \
        4500 - 400 + 150  # 4250
    # deck scale on 52 cards: +50 per card, 6 cards -> +300 each
    assert evaluate(ARTICLE_HANDS["very_unsuccessful"], *args) == 4250 + 300
    assert evaluate(ARTICLE_HANDS["much_better"], *args) == 4250 + 300
    # true division: trunc((0.25 - 6/26) x 600) = trunc(11.538...) = 11 instead of 150
    assert evaluate(ARTICLE_HANDS["much_better"], *args, division="true") == 4550 - 150 + 11


def test_deck_scale_36_cards():
    # 6S 6H AD, trump clubs, talon 10, hands [3, 5]: 6 -> 6 + 4.5 - 14 = -3.5, A -> 4.5
    #   cards -350 - 350 + 450 = -250; sixes max(-3.5, 1) x 0.5 = 0.5 -> 0
    #   3 non-trumps, one per suit: no penalty; cardsInPlay = 10 + 8 - 3 = 15 -> ratio 0 -> +150
    assert evaluate("6S 6H AD", "C", 10, [3, 5], deck=36) == -250 + 0 - 0 + 150
    # article scale: -200 - 200 + 600 = 200
    assert evaluate("6S 6H AD", "C", 10, [3, 5], deck=36, scale="article") == 200 + 150
    # bonus x 100: sixes 1 x 100 x 0.5 = 50
    assert evaluate("6S 6H AD", "C", 10, [3, 5], deck=36, rank_bonus="x100") == -250 + 50 + 150


def test_same_rank_bonus_triples_and_quads():
    # KS KD KC, trump hearts, 36 cards: K = 13 + 4.5 - 14 = 3.5 -> 350 x 3 = 1050
    #   bonus 3.5 x 0.75 = 2.625 -> 2; one card per non-trump suit: no penalty;
    #   talon 0, hands [3, 3]: cardsInPlay 3, ratio 1 -> (0.25 - 1) x 600 = -450
    assert evaluate("KS KD KC", "H", 0, [3, 3], deck=36) == 1050 + 2 - 450
    # AS AD AH AC, trump hearts: 450 x 4 + 1300 = 3100; bonus 4.5 x 1.25 = 5.625 -> 5;
    #   3 non-trumps one per suit: 0; talon 0, hands [4, 1]: cardsInPlay 1, ratio 4 -> -2250
    assert evaluate("AS AD AH AC", "H", 0, [4, 1], deck=36) == 3100 + 5 - 2250
    assert evaluate("AS AD AH AC", "H", 0, [4, 1], deck=36, rank_bonus="x100") == \
        3100 + 562 - 2250


def test_only_trumps_no_suit_penalty():
    # 7C 8C trump clubs, 36 cards: (-250 + 1300) + (-150 + 1300) = 2200; 0 non-trumps: the
    # code's 0/0 = NaN truncates to 0; talon 0, hands [2, 1]: cardsInPlay 1, ratio 2 -> -1050
    assert evaluate("7C 8C", "C", 0, [2, 1], deck=36) == 2200 - 1050


def test_unbalanced_penalty_divides_before_multiplying():
    # 6S 7S 8D 9D, trump hearts, 36 cards; cards -350 - 250 - 150 - 50 = -800
    # avg 4/3: S |(2 - 4/3) / (4/3)| = 0.5000000000000001 -> 200 x = 100.00000000000003 -> 100
    #   D the same -> 100; C |(0 - 4/3) / (4/3)| = 1 -> 200. Total 400.
    #   (200 x |0 - 4/3|) / (4/3) would give 199.99999999999997 -> 199: the order matters.
    # talon 12, hands [4, 6]: cardsInPlay 18, ratio 0 -> +150
    assert evaluate("6S 7S 8D 9D", "H", 12, [4, 6], deck=36) == -800 - 400 + 150
    # 5 non-trumps with 2 of one suit: trunc(39.99999999999999) = 39, not 40
    # 6S 7S 8D 9D 10C, trump hearts: cards -800 + 50 = -750; S 2 -> 39, D 2 -> 39, C 1 -> 80
    assert evaluate("6S 7S 8D 9D 10C", "H", 12, [5, 6], deck=36) == -750 - 158 + 150


def test_many_cards_integer_division_truncates_toward_zero():
    # "hand + table" scoring: 7 cards while the size array still sums to 4 (talon 0):
    # cardsInPlay = 0 + 4 - 7 = -3; Kotlin 7 / -3 = -2 (Python 7 // -3 = -3)
    assert kotlin_div(7, -3) == -2 and kotlin_div(-7, 3) == -2 and kotlin_div(7, 3) == 2
    hand = "6S 7D 8C 9H 10S JD QC"  # trump hearts, 36 cards
    # cards: -350 - 250 - 150 + (-50 + 1300) + 50 + 150 + 250 = 950
    # 6 non-trumps, avg 2: S 2, D 2, C 2 -> no penalty
    # int division: (0.25 + 2) x 600 = 1350; true division: (0.25 + 7/3) x 600 = 1550.0
    assert evaluate(hand, "H", 0, [2, 2], deck=36) == 950 + 1350
    assert evaluate(hand, "H", 0, [2, 2], deck=36, division="true") == 950 + 1550
    # cardsInPlay = 0 -> ratio 10: (0.25 - 10) x 600 = -5850. 6S alone (trump hearts):
    # avg 1/3; S |(1 - 1/3) / (1/3)| = 2 -> 400, D and C |(0 - 1/3) / (1/3)| = 1 -> 200 each
    assert evaluate("6S", "H", 0, [1], deck=36) == -350 - 400 - 200 - 200 - 5850


def test_article_scale_ignores_the_deck_and_deck_scale_follows_it():
    # 24 cards (9 ... A, m = 3): 9 -> 9 + 3 - 14 = -2, ace -> 3
    assert evaluate("9S AS", "H", 18, [2, 6], deck=24, drop=["unbalanced"]) == -200 + 300 + 150
    assert evaluate("9S AS", "H", 18, [2, 6], deck=24, scale="article",
                    drop=["unbalanced"]) == 100 + 600 + 150
    # 32 cards (7 ... A, m = 4): 7 -> -3, ace -> 4
    assert evaluate("7S AS", "H", 18, [2, 6], deck=32, drop=["unbalanced"]) == -300 + 400 + 150


def test_dropping_terms():
    hand, args = ARTICLE_HANDS["almost_perfect"], ("D", 0, [6, 2])
    assert evaluate(hand, *args, drop=["rank_bonus"]) == 197 - 5
    assert evaluate(hand, *args, drop=["unbalanced"]) == 197 + 158
    assert evaluate(hand, *args, drop=["many_cards"]) == 197 + 1650
    assert evaluate(hand, *args, drop=["trump_bonus"]) == 197 - 1300
    assert evaluate(hand, *args, drop=["card_values"]) == 197 - 700


@pytest.mark.parametrize("kwargs, message", [
    ({"scale": "metric"}, "scale must be one of deck, article"),
    ({"division": "floor"}, "division must be one of int, true"),
    ({"rank_bonus": "x10"}, "rank_bonus must be one of code, x100"),
    ({"drop": ["luck"]}, "drop must name terms"),
    ({"deck": 30}, "deck must be a multiple of 4"),
])
def test_bad_switches(kwargs, message):
    with pytest.raises(ValueError, match=message):
        evaluate("6S", "H", 0, [1, 1], **kwargs)
