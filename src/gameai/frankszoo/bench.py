"""``gameai bench frankszoo``: engine speed, as ratios against the paper's own figures.

The paper gives one timing: Fig. 7 (Monte Carlo with the highest weight, 10,000 games per deck
for 2-9 card types) "took us more than one month to run" (§5.2). We time the same work on one
core and report the ratio; raw random games/s and Monte Carlo decisions/s are printed too.
"""

from __future__ import annotations

import os
import time

import numpy as np

from .agents import agent_row, mc_action
from .decks import get_deck
from .experiments import NO_LOG, NO_TABLE, agents_array
from .play import new_hand, play_game
from .rules import MAX_MOVES, ST_DONE, apply_action, random_action, rule_switches

PAPER_FIG7_SECONDS = 30 * 24 * 3600  # "more than one month"
FIG7_GAMES = 10_000
FIG7_DECKS = tuple(f"test{k}" for k in range(2, 10))


def _games_per_second(deck_name: str, seats, n: int, rng, W=None, hw=None) -> float:
    deck = get_deck(deck_name)
    sp = rule_switches(deck, "uniform")
    ag = agents_array(seats, 100)
    W = NO_TABLE if W is None else W
    hw = np.full(deck.n_types, 30.0) if hw is None else hw
    t0 = time.perf_counter()
    for _ in range(n):
        hands, st = new_hand(deck.counts, sp, rng)
        play_game(hands, st, deck.beats, sp, ag, hw, W, rng, NO_LOG)
    return n / (time.perf_counter() - t0)


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


def mc_decisions_per_second(deck_name: str, n: int, rng) -> float:
    deck, sp, positions = _positions(deck_name, n, rng)
    agent = agent_row("MC-score", 100)
    mv = np.empty((MAX_MOVES, 4), dtype=np.int64)
    t0 = time.perf_counter()
    for hands, st in positions:
        mc_action(hands, st, deck.beats, sp, NO_TABLE, agent, mv, rng)
    return n / (time.perf_counter() - t0)


def main(quick: bool = False) -> dict:
    rng = np.random.default_rng(0)
    scale = 0.1 if quick else 1.0
    _games_per_second("test4", ["RandomAI"] * 4, 2, rng)  # compile / load the numba cache
    _games_per_second("test4", ["MC-highest"] + ["RandomAI"] * 3, 1, rng)
    mc_decisions_per_second("test4", 2, rng)
    out = {}
    print("Frank's Zoo engine benchmark (one core)")
    print(f"{'deck':>9}  {'random games/s':>15}  {'MC decisions/s':>15}")
    for name in ("test2", "test5", "test9", "test13", "original"):
        g = _games_per_second(name, ["RandomAI"] * 4, int(20_000 * scale), rng)
        d = mc_decisions_per_second(name, max(5, int(100 * scale)), rng)
        out[name] = {"random_games_per_s": g, "mc_decisions_per_s": d}
        print(f"{name:>9}  {g:15,.0f}  {d:15,.1f}")
    fig7 = 0.0
    for name in FIG7_DECKS:
        rate = _games_per_second(name, ["MC-highest"] + ["RandomAI"] * 3,
                                 max(5, int(200 * scale)), rng)
        fig7 += FIG7_GAMES / rate
    cores = os.cpu_count() or 1
    out["fig7_seconds_one_core"] = fig7
    print(f"\nFig. 7 (MC-highest, 10,000 games x decks 2-9), estimated: {fig7 / 60:.0f} min on one "
          f"core, {fig7 / 60 / cores:.0f} min on {cores} cores")
    print(f"paper: more than one month -> speed-up >= {PAPER_FIG7_SECONDS / fig7:,.0f}x on one core "
          f"(their playouts drew from a weight table too; hardware of 2007)")
    return out
