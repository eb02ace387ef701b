"""The anchor paper's claim this chapter tests, in words (nothing here is a result of ours).

Cowling, P. I., Powley, E. J. & Whitehouse, D. (2012). Information Set Monte Carlo Tree Search.
IEEE Transactions on Computational Intelligence and AI in Games 4(2), 120-143. It introduces
ISMCTS and reports that, in its three test domains (one of them the card game Dou Di Zhu), ISMCTS
plays at least as well as determinized UCT given the same number of iterations.
"""

from __future__ import annotations

ANCHOR = "Cowling, Powley & Whitehouse (2012)"
#: The anchor's claim, tested once per game (claim id ``<game>.ismcts_vs_det_uct``).
ISMCTS_CLAIM = ("SO-ISMCTS plays at least as well as determinized UCT at equal iteration "
                "budgets")
