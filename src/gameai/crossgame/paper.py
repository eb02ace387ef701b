"""What Cowling, Powley & Whitehouse (2012) report, in words (nothing here is a result of ours).

Cowling, P. I., Powley, E. J. & Whitehouse, D. (2012). Information Set Monte Carlo Tree Search.
IEEE Transactions on Computational Intelligence and AI in Games 4(2), 120-143,
doi:10.1109/TCIAIG.2012.2200894 (author's copy: White Rose eprints 75048). Every search there
gets 10,000 iterations per decision (Section V-B) and the UCB1 constant 0.7 (Section IV-A).
Its three domains, in its Sections V-VII, are summarised in :data:`DOMAINS`; its conclusion
(Section IX): "In domains where deep search is possible and beneficial or strategy fusion is
detrimental, ISMCTS shows great promise. However, in domains such as Dou Di Zhu, where
information sets have large numbers of legal moves and the effect of strategy fusion is not so
clear, ISMCTS offers no immediate benefit over existing approaches."
"""

from __future__ import annotations

ANCHOR = "Cowling, Powley & Whitehouse (2012)"
#: The paper's claim as its abstract and conclusion put it (the claims table's "paper" column).
ISMCTS_WORDS = "at least as well (in Dou Di Zhu: no better)"
#: The claim as the chapter tests it, once per game (claim id ``<game>.ismcts_vs_det_uct``).
ISMCTS_CLAIM = ("SO-ISMCTS is not worse than determinized UCT with its best number of "
                "determinizations by more than 3 points at every budget (equal iterations, same "
                "deals, Holm over the budgets)")
#: The UCB1 constant the paper used for every algorithm (Section IV-A).
PAPER_EXPLORATION = 0.7
#: The paper's domains: determinized UCT's setting (determinizations x iterations each), the
#: budget and what ISMCTS did against it, with the section that reports it.
DOMAINS = (
    {"domain": "Lord of the Rings: The Confrontation",
     "det_uct": "10 × 1,000 and 1 × 10,000 (fewer, deeper trees played better: 1 × 10,000 beat "
                "40 × 250 by 22.9 points)",
     "budget": "10,000 iterations",
     "finding": "better: all three ISMCTS variants beat determinized UCT as Dark, MO-ISMCTS by "
                "about 4.4 points as Light; the gain is credited to deeper search (Section V)"},
    {"domain": "Phantom (4,4,4)",
     "det_uct": "40 × 250",
     "budget": "10,000 iterations",
     "finding": "mixed: MO-ISMCTS better, SO-ISMCTS worse than determinized UCT; strategy "
                "fusion is named as the key (Section VI)"},
    {"domain": "Dou Di Zhu",
     "det_uct": "40 × 250",
     "budget": "10,000 iterations",
     "finding": "no gain: SO-ISMCTS wins 42.3 % against determinized UCT's 43.6 %, better only on "
                "deals where seeing the cards helps; opponents' many leading plays are a "
                "bottleneck for the single tree (Section VII)"},
)
