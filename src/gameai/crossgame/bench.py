"""``gameai bench crossgame``: the cost of one decision of each search, per game.

For every game, the first decision of the seat under test in a fresh deal is searched at 1,000
iterations by each search; the rate is decisions per second of this process's CPU time (one
core). The anchor paper gives no comparable timings (its budgets are iterations too).
"""

from __future__ import annotations

import time

import numpy as np

from . import games as G
from . import search as S
from .play import EXPLORATION, SETTINGS, deal_rng

BUDGET = 1_000


def decisions_per_second(game: str, search: str, budget: int = BUDGET, repeats: int = 3) -> float:
    s, g = SETTINGS[game].new_game(deal_rng(0, game, 0), 0)
    mv = np.empty(G.MAX_MOVES, dtype=np.int64)
    rng = np.random.default_rng(0)
    while G.current(s, g) >= 0 and (G.current(s, g) != 0 or G.legal(s, g, mv) < 2):
        G.apply(s, g, G.baseline(s, g, rng))  # up to seat 0's first real decision
    sid = S.SEARCH_IDS[search]
    S.search_move(sid, s, g, 2, EXPLORATION, rng)  # compile / load the cache
    t0 = time.process_time()
    for _ in range(repeats):
        S.search_move(sid, s, g, budget, EXPLORATION, rng)
    return repeats / max(time.process_time() - t0, 1e-9)


def main(quick: bool = False) -> dict:
    out = {}
    print(f"Cross-game benchmark: decisions per CPU second at {BUDGET:,} iterations (one core)")
    print(f"{'game':>12}  " + "  ".join(f"{s:>9}" for s in S.SEARCHES))
    for game in SETTINGS:
        rates = [decisions_per_second(game, s, repeats=1 if quick else 3) for s in S.SEARCHES]
        out[game] = dict(zip(S.SEARCHES, rates))
        print(f"{game:>12}  " + "  ".join(f"{r:9.2f}" for r in rates))
    return out


if __name__ == "__main__":
    main()
