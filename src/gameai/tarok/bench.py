"""``gameai bench tarok``: search nodes per second per configuration, random deals per second,
and OpenSpiel's C++ tarok playing random deals driven from Python, on one core.

Search: the Table 1 setup (first card of a deal of "three", ``depth`` plies) on a few sampled
deals per configuration; µs per node against the paper's (Athlon XP 1800+, 2003; target under
1 µs, issue 9). Random play: deal, random talon and discards, random legal cards to the end,
scores - all in one compiled loop (ours) or one Python loop over ``pyspiel`` calls (OpenSpiel,
from dealing to the end of the game with uniformly random legal actions, bidding included).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from . import rules as R
from .experiments import TABLE1_CONFIGS, prepared_state, warm_up
from .paper import TABLE1, TARGET_US_PER_NODE
from .sampling import sample_state
from .search import config_cfg, search_root, shared_tables


@njit(cache=True)
def random_deals(n, rng):
    """Play ``n`` random deals of three (random talon group and discards); returns a checksum."""
    tot = 0
    for _ in range(n):
        hands, talon = R.deal(rng)
        decl = np.int64(rng.random() * 3)
        S = R.new_state(hands, talon, R.THREE, decl, 0)
        g = np.int64(rng.random() * 2)
        R.exchange(S, g, R.random_discards(S, g, rng))
        R.random_playout(S, rng)
        tot += R.scores(S)[decl]
    return tot


def search_rates(depth: int = 9, n_deals: int = 3, samples: int = 3, seed: int = 0) -> dict:
    """{config: (nodes, seconds)} summed over ``n_deals`` x ``samples`` searches."""
    warm_up()
    rng = np.random.default_rng(seed)
    tables = shared_tables()
    moves = np.zeros(16, dtype=np.int64)
    vals = np.zeros(16, dtype=np.int64)
    out = {name: [0, 0.0] for name in TABLE1_CONFIGS}
    for d in range(n_deals):
        S = prepared_state(d, R.THREE, 0, 2003)
        for _ in range(samples):
            T = np.empty_like(S)
            sample_state(S, 0, rng, T)
            for name in TABLE1_CONFIGS:
                t0 = time.perf_counter()
                _, nodes = search_root(T, 0, depth, config_cfg(name), *tables.args(), moves,
                                       vals)
                out[name][0] += int(nodes)
                out[name][1] += time.perf_counter() - t0
    return {k: tuple(v) for k, v in out.items()}


def our_deal_rate(seconds: float = 1.0, seed: int = 0) -> float:
    rng = np.random.default_rng(seed)
    random_deals(10, rng)  # compile / load the cache
    n = 1000
    t0 = time.perf_counter()
    done = 0
    while time.perf_counter() - t0 < seconds:
        random_deals(n, rng)
        done += n
    return done / (time.perf_counter() - t0)


def openspiel_deal_rate(seconds: float = 1.0, seed: int = 0) -> float | None:
    """Random deals per second of OpenSpiel's tarok from Python (None if not installed)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(f"tarok(players=3,rng_seed={seed})")
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    done = 0
    while time.perf_counter() - t0 < seconds:
        st = game.new_initial_state()
        while not st.is_terminal():
            la = st.legal_actions()
            st.apply_action(la[int(rng.integers(len(la)))])
        done += 1
    return done / (time.perf_counter() - t0)


def main(quick: bool = False) -> dict:
    depth = 6 if quick else 9
    rates = search_rates(depth, 1 if quick else 3, 2 if quick else 3)
    print(f"Tarok search, first card of a deal, depth {depth}, one core "
          f"(paper: Athlon XP 1800+, depth 9)")
    print(f"{'config':>15} {'nodes':>11} {'nodes/s':>12} {'us/node':>8} {'paper':>7} {'x':>6}")
    us_all = None
    for name, (nodes, secs) in rates.items():
        us = secs / max(nodes, 1) * 1e6
        paper_us = TABLE1[f"table1.{name}"][3]
        us_all = us if name == "all" else us_all
        print(f"{name:>15} {nodes:11,d} {nodes / secs:12,.0f} {us:8.3f} {paper_us:7.1f} "
              f"{paper_us / us:6.1f}")
    verdict = "met" if us_all < TARGET_US_PER_NODE else "NOT met"
    print(f"all enhancements: {us_all:.3f} us/node (target < {TARGET_US_PER_NODE} us: {verdict})")
    secs = 0.3 if quick else 2.0
    ours = our_deal_rate(secs)
    theirs = openspiel_deal_rate(secs)
    print(f"random deals/s: ours {ours:,.0f}", end="")
    if theirs is None:
        print(" (OpenSpiel not installed)")
    else:
        print(f", OpenSpiel from Python {theirs:,.0f}, ratio {ours / theirs:.1f}x")
    return {"search": rates, "us_per_node_all": us_all, "deals_per_s": ours,
            "openspiel_deals_per_s": theirs}


if __name__ == "__main__":
    main()
