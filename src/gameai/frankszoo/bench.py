"""``gameai bench frankszoo``: engine speed, against the paper authors' engine and §5.2's timing.

* Random games/s per deck, two ways. *Engine*: the games run in one compiled loop
  (:func:`play_many`), as in ``last_hand_totals`` and ``sequence_counts``, so the figure
  measures the engine. *Per call*: ``new_hand`` and ``play_game`` called from Python once per
  game, as ``experiments.GameTask`` does; numba unboxes the ``Generator`` on each call (about
  10 µs, measured with numba 0.68), which caps this figure whatever the engine does.
* The ratio to the paper authors' Python engine, 516 random games/s on the original deck on a
  machine like ours (issue 12).
* Monte Carlo decisions/s (MC-score, 100 episodes per candidate, from mid-game positions).
* The paper gives one timing: Fig. 7 (Monte Carlo with the highest weight, 10,000 games per
  deck for 2-9 card types) "took us more than one month to run" (§5.2). We time the same work
  on one core and report the ratio.

Every figure is the best of a few repeats: the machines this runs on are shared, and the best
run is the one least disturbed by other work.
"""

from __future__ import annotations

import os
import time

import numpy as np
from numba import njit

from .agents import agent_row, mc_action
from .decks import get_deck
from .experiments import NO_LOG, NO_TABLE, agents_array
from .play import new_hand, play_game
from .rules import MAX_MOVES, ST_DONE, ST_TURNS, apply_action, random_action, rule_switches

PAPER_FIG7_SECONDS = 30 * 24 * 3600  # "more than one month"
FIG7_GAMES = 10_000
FIG7_DECKS = tuple(f"test{k}" for k in range(2, 10))
#: Random games/s of the paper authors' Python engine on the original deck (issue 12).
AUTHORS_GAMES_PER_S = 516
REPEATS = 3


@njit(cache=True)
def play_many(counts, beats, sp, ag, hw, W, n_games, rng):
    """Deal and play ``n_games`` hands in one compiled loop; returns the actions taken."""
    turns = 0
    no_log = np.empty((0, 3), dtype=np.int64)  # a global array would be read-only here
    for _ in range(n_games):
        hands, st = new_hand(counts, sp, rng)
        play_game(hands, st, beats, sp, ag, hw, W, rng, no_log)
        turns += st[ST_TURNS]
    return turns


def _best_rate(run, n: int, repeats: int = REPEATS) -> float:
    """``n / seconds`` of the fastest of ``repeats`` calls of ``run()``."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    return n / best


def _setup(deck_name: str, seats, episodes: int = 100):
    deck = get_deck(deck_name)
    sp = rule_switches(deck, "uniform")
    ag = agents_array(seats, episodes)
    hw = np.full(deck.n_types, 30.0)
    return deck, sp, ag, hw


def engine_games_per_second(deck_name: str, seats, n: int, rng, W=None,
                            repeats: int = REPEATS) -> float:
    """Games/s in one compiled loop (the engine's speed)."""
    deck, sp, ag, hw = _setup(deck_name, seats)
    W = NO_TABLE if W is None else W
    return _best_rate(lambda: play_many(deck.counts, deck.beats, sp, ag, hw, W, n, rng), n,
                      repeats)


def python_games_per_second(deck_name: str, seats, n: int, rng, W=None,
                            repeats: int = REPEATS) -> float:
    """Games/s with one ``new_hand`` + ``play_game`` call from Python per game (as GameTask)."""
    deck, sp, ag, hw = _setup(deck_name, seats)
    W = NO_TABLE if W is None else W

    def run():
        for _ in range(n):
            hands, st = new_hand(deck.counts, sp, rng)
            play_game(hands, st, deck.beats, sp, ag, hw, W, rng, NO_LOG)

    return _best_rate(run, n, repeats)


def _positions(deck_name: str, n: int, rng):
    """``n`` mid-game positions (RandomAI play stopped at a random turn)."""
    deck = get_deck(deck_name)
    sp = rule_switches(deck, "uniform")
    mv = np.empty((MAX_MOVES, 4), dtype=np.int64)
    out = []
    while len(out) < n:
        hands, st = new_hand(deck.counts, sp, rng)
        stop = rng.integers(0, 3 * deck.n_cards // 4)
        for _ in range(stop):
            if st[ST_DONE]:
                break
            apply_action(hands, st, mv, random_action(hands, st, deck.beats, sp, mv, rng), sp)
        if not st[ST_DONE]:
            out.append((hands, st))
    return deck, sp, out


def mc_decisions_per_second(deck_name: str, n: int, rng, repeats: int = REPEATS) -> float:
    """MC-score decisions/s (100 episodes per candidate) over ``n`` mid-game positions."""
    deck, sp, positions = _positions(deck_name, n, rng)
    agent = agent_row("MC-score", 100)
    mv = np.empty((MAX_MOVES, 4), dtype=np.int64)

    def run():
        for hands, st in positions:
            mc_action(hands, st, deck.beats, sp, NO_TABLE, agent, mv, rng)

    return _best_rate(run, n, repeats)


def main(quick: bool = False) -> dict:
    rng = np.random.default_rng(0)
    scale = 0.1 if quick else 1.0
    # compile / load the numba cache outside the timings
    engine_games_per_second("test4", ["RandomAI"] * 4, 2, rng, repeats=1)
    python_games_per_second("test4", ["RandomAI"] * 4, 2, rng, repeats=1)
    engine_games_per_second("test4", ["MC-highest"] + ["RandomAI"] * 3, 1, rng, repeats=1)
    mc_decisions_per_second("test4", 2, rng, repeats=1)
    out = {}
    print("Frank's Zoo engine benchmark (one core, best of %d runs)" % REPEATS)
    print(f"{'deck':>9}  {'random games/s':>15}  {'per call':>10}  {'MC decisions/s':>15}")
    print(f"{'':>9}  {'(engine)':>15}  {'(Python)':>10}  {'(MC-score, 100)':>15}")
    for name in ("test2", "test5", "test9", "test13", "original"):
        seats = ["RandomAI"] * 4
        g = engine_games_per_second(name, seats, int(50_000 * scale), rng)
        c = python_games_per_second(name, seats, int(10_000 * scale), rng)
        d = mc_decisions_per_second(name, max(5, int(100 * scale)), rng)
        out[name] = {"random_games_per_s": g, "random_games_per_s_per_call": c,
                     "mc_decisions_per_s": d}
        print(f"{name:>9}  {g:15,.0f}  {c:10,.0f}  {d:15,.1f}")
    orig = out["original"]
    out["ratio_to_authors"] = orig["random_games_per_s"] / AUTHORS_GAMES_PER_S
    print(f"\noriginal deck vs the authors' Python engine ({AUTHORS_GAMES_PER_S} random games/s): "
          f"{out['ratio_to_authors']:,.0f}x (engine), "
          f"{orig['random_games_per_s_per_call'] / AUTHORS_GAMES_PER_S:,.0f}x (per call)")
    fig7 = 0.0
    for name in FIG7_DECKS:
        rate = engine_games_per_second(name, ["MC-highest"] + ["RandomAI"] * 3,
                                       max(5, int(200 * scale)), rng, repeats=1)
        fig7 += FIG7_GAMES / rate
    cores = os.cpu_count() or 1
    out["fig7_seconds_one_core"] = fig7
    print(f"Fig. 7 (MC-highest, 10,000 games x decks 2-9), estimated: {fig7 / 60:.0f} min on one "
          f"core, {fig7 / 60 / cores:.0f} min on {cores} cores")
    print(f"paper: more than one month -> speed-up >= {PAPER_FIG7_SECONDS / fig7:,.0f}x on one core "
          f"(their playouts drew from a weight table too; hardware of 2007)")
    return out
