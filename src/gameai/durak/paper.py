"""The article's own numbers and the spec's claim ids, for comparison columns only.

Nothing here is a result of ours. The article ("A game (not) for fools. Writing AI for the Fool,
Part 1") measures nothing: its numbers are the evaluator's constants, and its claims are
qualitative. The decision thresholds are OpenFool's (the code the never-published Part 2 would
have described), as read from OpenFool's code (``book/references.bib``: ``openfool_repo``).
"""

from __future__ import annotations

#: The article's card table (rank -> points; 8 = 0, ace +600) and constants.
ARTICLE_CARD_VALUES = {2: -600, 3: -500, 4: -400, 5: -300, 6: -200, 7: -100, 8: 0, 9: 100,
                       10: 200, 11: 300, 12: 400, 13: 500, 14: 600}
ARTICLE_TRUMP_BONUS = 1300
ARTICLE_SAME_RANK_BONUS = (0.0, 0.0, 0.5, 0.75, 1.25)
ARTICLE_UNBALANCED_HAND_PENALTY = 200
ARTICLE_MANY_CARDS_PENALTY = 600
ARTICLE_OUT_OF_PLAY = 30000

#: The article's example hands (trump: diamonds), in the order the article calls them
#: "almost perfect", "very unsuccessful" and "much better" (than the second).
ARTICLE_HANDS = {
    "almost_perfect": "2C 2S QD QH QC QS",
    "very_unsuccessful": "5S JS AS 6D 9D KD",
    "much_better": "5S 10C AS 3D 9D KD",
}
ARTICLE_TRUMP = "D"

#: OpenFool's decision thresholds (spec, "Decision rules").
OPENFOOL_THRESHOLDS = {
    "attack_bonus": (0.0, 0.0, 1.0, 1.5, 2.5),
    "throw_in": "cur - best < 1200 - 50 x talon",
    "beat": "cur - best < 800, or HV(hand + table) - best < 2000 - 40 x talon, or talon empty",
    "rank_present_bonus": 300,
    "transfer": "max(HV(hand without rank), HV(hand without its non-trumps of rank)) > cur - 400",
}

#: Claim ids of ``data/durak/claims.csv`` and what each says (spec, "What the chapter must show").
CLAIMS = {
    "article.ranks_bonus": "several cards of one rank are good to hold",
    "article.unbalanced_penalty": "many cards of one non-trump suit are bad",
    "article.many_cards_penalty": "many cards late in the game are bad",
    "article.hand_value_predicts": "the evaluator ranks hands by their chance of not being the "
                                   "fool (initial hand value against finishing place)",
    "ai.vs_random": "the evaluator-driven AI beats a random player",
    "ai.vs_smallest": "the evaluator-driven AI beats a smallest-legal-card player",
}
#: ``ablation.<term>`` claims: the AI with each evaluator term removed or switched.
ABLATIONS = {
    "ablation.rank_bonus": "EvalAI-norankbonus",
    "ablation.unbalanced": "EvalAI-nounbalanced",
    "ablation.many_cards": "EvalAI-nomanycards",
    "ablation.trump_bonus": "EvalAI-notrumpbonus",
    "ablation.card_values": "EvalAI-nocardvalues",
    "ablation.true_division": "EvalAI-truediv",
    "ablation.bonus_x100": "EvalAI-x100",
    "ablation.article_scale": "EvalAI-article",
}
