"""``gameai bench durak``: random games/s and evaluator-player games/s, 2 and 4 players.

The games run in one compiled loop (:func:`play_many`), reusing the state arrays, so the figures
measure the engine and the players rather than Python's call overhead. Rates are per second of
this process's CPU time (one core; on a shared machine wall-clock rates would measure the
neighbours too). The issue's target is at least 50,000 random two-player games/s on one core.
The article has no timings to compare with.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from .agents import agents_array, play_game
from .rules import SP_NP, ST_FOOL, deal, new_arrays, rule_switches

TARGET_RANDOM_2P = 50_000


@njit(cache=True)
def play_many(sp, ag, n_games, rng):
    """Play ``n_games`` games; returns how often each seat was the fool (index n: draws)."""
    hands, talon, st = new_arrays(sp)
    fools = np.zeros(sp[SP_NP] + 1, dtype=np.int64)
    for _ in range(n_games):
        deal(hands, talon, st, sp, rng)
        play_game(hands, talon, st, sp, ag, rng)
        fools[st[ST_FOOL]] += 1  # -1 (no fool) lands in the last slot
    return fools


def games_per_second(seats, deck: int = 36, n_games: int = 10_000, budget: int = 10,
                     seed: int = 0) -> float:
    sp = rule_switches(len(seats), deck)
    ag = agents_array(seats, budget)
    rng = np.random.default_rng(seed)
    play_many(sp, ag, 1, rng)  # compile / load the cache outside the timing
    t0 = time.process_time()
    play_many(sp, ag, n_games, rng)
    return n_games / max(time.process_time() - t0, 1e-9)


def main(quick: bool = False) -> dict:
    scale = 0.1 if quick else 1.0
    out = {}
    print("Durak benchmark (one core, 36 cards, OpenFool rules)")
    print(f"{'players':>7}  {'random games/s':>15}  {'EvalAI games/s':>15}")
    for n in (2, 4):
        r = games_per_second(["RandomAI"] * n, n_games=int(200_000 * scale))
        e = games_per_second(["EvalAI"] * n, n_games=int(20_000 * scale))
        out[n] = {"random_games_per_s": r, "eval_games_per_s": e}
        print(f"{n:>7}  {r:15,.0f}  {e:15,.0f}")
    print("\nCost per game (CPU ms), 36 cards, the agent against EvalAI")
    print(f"{'agent':>26}  {'2 players':>10}  {'4 players':>10}")
    for name, budget, games in (("SmallestAI", 1, 20_000), ("EvalAI", 1, 20_000),
                                ("MC-AI-smallest", 20, 10), ("MC-AI", 5, 20),
                                ("MC-AI", 20, 6)):
        costs = []
        for n in (2, 4):
            g = max(2, int(games * scale))
            costs.append(1000.0 / games_per_second([name] + ["EvalAI"] * (n - 1), n_games=g,
                                                   budget=budget))
        label = f"{name} (budget {budget})" if name.startswith("MC") else name
        out[f"ms_per_game_{label}"] = costs
        print(f"{label:>26}  {costs[0]:10.3f}  {costs[1]:10.3f}")
    ratio = out[2]["random_games_per_s"] / TARGET_RANDOM_2P
    print(f"random two-player games/s: {ratio:.1f}x the target of {TARGET_RANDOM_2P:,}")
    return out


if __name__ == "__main__":
    main()
