"""The paper's own numbers (Braun & Spronck 2009), for the comparison columns only.

Nothing here is ever used as a result: these values appear beside ours in tables and figures.
Percentages are fractions (0.44 = 44 %). Sources: §5.1-5.3 and §6.1 of the paper and the claim
list of the chapter spec.
"""

from __future__ import annotations

#: Table 4: weights per card type (type 1 = weakest) for the test decks. The text extraction is
#: imperfect: rows 9 and 13 may have lost or shifted a value (row 13's last entry is "(0)").
TABLE4 = {
    2: (85, 54),
    3: (68, 50, 23),
    4: (64, 40, 33, 9),
    5: (64, 42, 29, 18, 12),
    6: (62, 35, 35, 12, 6, 3),
    7: (49, 48, 32, 22, 9, 3, 3),
    8: (52, 44, 39, 23, 9, 2, 3, 1),
    9: (47, 41, 25, 25, 0, 7, 7, 2, 2),
    10: (55, 43, 32, 15, 8, 7, 8, 1, 1, 0),
    11: (54, 34, 36, 20, 15, 10, 3, 3, 0, 0, 0),
    12: (52, 42, 34, 20, 15, 14, 2, 3, 2, 1, 0, 0),
    13: (58, 36, 27, 19, 15, 13, 8, 0, 0, 1, 1, 0, 0),
}
#: Rows whose extraction is doubtful; left out when the pass rule is settled.
TABLE4_DOUBTFUL = (9, 13)

#: The paper prints whole percentages: a printed 44 % stands for [43.5 %, 44.5 %).
STEP = 0.01

#: Definition 2 of the paper, the one sentence on passing (quoted in the chapter).
PASS_TEXT = "Pass: Play no cards; this is always allowed."

#: Per-experiment summary claims: experiment -> {"mean": (win, score), "best_win": (value, k),
#: "worst_win": …, "best_score": …, "worst_score": …, "decks": (fewest, most types)}.
#: ``decks`` is the range of test decks the figure covers, as the text states it: Fig. 2 stops at
#: 11 types ("11 card types (which is the highest number of card types used in these
#: experiments)", §5.1), Figs. 3-6 go to 13 (worst at 13; "from 10 to 13"), Fig. 7 to 9.
SUMMARIES = {
    "heuristic": {
        "figure": "Fig. 2", "games": 10_000,
        "decks": (2, 11),
        "mean": (0.44, 0.79),
        "best_win": (0.49, 11), "worst_win": (0.32, 2),
        "best_score": (0.84, 11), "worst_score": (0.70, 2),
    },
    "mc_std_wins": {
        "figure": "Fig. 3", "games": 1_000,
        "decks": (2, 13),
        "mean": (0.30, 0.57),
        "best_win": (0.34, 7), "worst_win": (0.26, 5),
        "best_score": (0.62, 7), "worst_score": (0.54, 5),
    },
    "mc_std_score": {
        "figure": "Fig. 4", "games": 1_000,
        "decks": (2, 13),
        "mean": (0.31, 0.61),
        "best_win": (0.34, 2), "worst_win": (0.27, 5),
        "best_score": (0.66, 2), "worst_score": (0.56, 5),
    },
    "mc_weights": {
        "figure": "Fig. 5", "games": 200,
        "decks": (2, 13),
        "mean": (0.27, 0.57),
        "best_win": (0.36, 5), "worst_win": (0.18, 13),
        "best_score": (0.67, 3), "worst_score": (0.45, 13),
    },
    "mc_highest": {
        "figure": "Fig. 6", "games": 200,
        "decks": (2, 13),
        "mean": (0.32, 0.66),
        "best_win": (0.40, 5), "worst_win": (0.25, 11),
        "best_score": (0.73, 4), "worst_score": (0.60, 13),
    },
    "mc_highest_10k": {
        "figure": "Fig. 7", "games": 10_000,
        "decks": (2, 9),
        "mean": (0.34, 0.67),
        "best_win": (0.39, 4), "worst_win": (0.30, 9),
        "best_score": (0.70, 4), "worst_score": (0.63, 9),
    },
}

#: HeuristicAI on the published deck (§5.1).
HEURISTIC_ORIGINAL = {"win": 0.82, "score": 0.94, "games": 10_000}

#: Move predictor (§6.1): share of HeuristicAI's moves predicted correctly.
PREDICTOR_ACCURACY = 0.68
PREDICTOR_GAMES = (10_000, 10_000)

#: A RandomAI among RandomAIs: 1/4 of the wins and (4 + 3 + 2 + 0) / 16 of the points.
RANDOM_WIN = 0.25
RANDOM_SCORE = 9 / 16
