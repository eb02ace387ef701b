"""``gameai bench tarok``: search nodes per second per configuration, and random play like
for like against OpenSpiel's C++ tarok (Lanctot et al. 2019), on one core; the results go to a
committed record (``data/tarok/bench.json``, with the machine and the date) that the book reads.

Search: the Table 1 setup (first card of a deal of "three", ``depth`` plies) on a few sampled
deals per configuration, in the sound and the thesis's search configuration; µs per node against
the paper's (Athlon XP 1800+, 2003; target under 1 µs, issue 9).

Random play on the *same start states*: OpenSpiel deals, forehand bids three and the others
pass, a random talon group and random discards; the same hands, talon and discards start our
engine (forehand leading, OpenSpiel's rule). From there 48 plies of uniformly random legal cards
to the end and the scores: our compiled loop, OpenSpiel's C++ loop (``pyspiel.evaluate_bots``
with uniform random bots) and its Python loop (one ``pyspiel`` call per action).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import numpy as np
from numba import njit

from ..core.benchrecord import machine
from . import rules as R
from .experiments import TABLE1_CONFIGS, prepared_state, warm_up
from .paper import TABLE1, TARGET_US_PER_NODE
from .sampling import sample_state
from .search import SEARCH_VARIANTS, search_root, shared_tables, variant_cfg

#: Where ``gameai bench tarok`` keeps its record (read by the book, never re-measured there).
RECORD = Path(__file__).resolve().parents[3] / "data" / "tarok" / "bench.json"


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


def search_rates(depth: int = 9, n_deals: int = 3, samples: int = 3, seed: int = 0,
                 variant: str = "sound") -> dict:
    """{config: (nodes, seconds)} summed over ``n_deals`` x ``samples`` searches in the named
    search configuration ``variant``."""
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
                _, nodes = search_root(T, 0, depth, variant_cfg(name, variant), *tables.args(),
                                       moves, vals)
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


def _bid_three(st) -> None:
    """OpenSpiel's bidding: forehand (player 0, who speaks last) bids three, the others pass."""
    while str(st.current_game_phase()).endswith("BIDDING"):
        acts = {st.action_to_string(a): a for a in st.legal_actions()}
        st.apply_action(acts["Three"] if st.current_player() == 0 else acts["Pass"])


def start_states(n: int, seed: int = 0):
    """``n`` start states of play in both engines: (OpenSpiel states, our states as rows)."""
    import pyspiel

    game = pyspiel.load_game(f"tarok(players=3,rng_seed={seed})")
    rng = np.random.default_rng(seed)
    theirs, ours = [], np.zeros((n, R.S_LEN), dtype=np.int64)
    for i in range(n):
        st = game.new_initial_state()
        st.apply_action(0)  # the deal
        hands = np.array([sum(1 << c for c in st.player_cards(p)) for p in range(3)],
                         dtype=np.int64)
        S = R.new_state(hands, np.array(st.talon(), dtype=np.int64), R.THREE, 0,
                        R.RULE_FOREHAND_LEADS)
        _bid_three(st)
        group = int(rng.choice(st.legal_actions()))
        st.apply_action(group)
        disc = 0
        while str(st.current_game_phase()).endswith("TALON_EXCHANGE"):
            a = int(rng.choice(st.legal_actions()))
            disc |= 1 << a
            st.apply_action(a)
        if not R.exchange(S, group, np.int64(disc)):
            raise RuntimeError("OpenSpiel's discards are not legal here")
        theirs.append(st)
        ours[i] = S
    return theirs, ours


@njit(cache=True)
def play_from(starts, reps, rng):
    """Random legal cards to the end from each start state, ``reps`` times; a checksum."""
    tot = 0
    S = np.empty(starts.shape[1], dtype=np.int64)
    for _ in range(reps):
        for i in range(starts.shape[0]):
            S[:] = starts[i]
            R.random_playout(S, rng)
            tot += R.scores(S)[0]
    return tot


def _rate(step, seconds: float) -> float:
    """Games per second of ``step()`` (which plays some and returns how many) over ``seconds``."""
    t0 = time.perf_counter()
    done = 0
    while time.perf_counter() - t0 < seconds:
        done += step()
    return done / (time.perf_counter() - t0)


def like_for_like(n_starts: int = 200, seconds: float = 2.0, seed: int = 0) -> dict | None:
    """Random games per second from the same start states (module docstring): ours, OpenSpiel's
    C++ loop and its Python loop; None when OpenSpiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    theirs, ours = start_states(n_starts, seed)
    rng = np.random.default_rng(seed)
    play_from(ours[:1], 1, rng)  # compile / load the cache
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(3)]
    it = iter(range(10**12))

    def cpp():
        for st in theirs:
            pyspiel.evaluate_bots(st.clone(), bots, next(it))
        return len(theirs)

    pick = random.Random(seed).choice

    def python():
        for st in theirs:
            s = st.clone()
            while not s.is_terminal():
                s.apply_action(pick(s.legal_actions()))
        return len(theirs)

    def compiled():
        play_from(ours, 10, rng)
        return 10 * n_starts

    return {"start_states": n_starts, "plies_per_game": 48, "ours": _rate(compiled, seconds),
            "openspiel_cpp": _rate(cpp, seconds), "openspiel_python": _rate(python, seconds)}


def read_record(path: Path = RECORD) -> dict | None:
    """The committed bench record (None if there is none)."""
    return json.loads(path.read_text()) if path.exists() else None


def _print_search(rates: dict, depth: int, label: str) -> float:
    print(f"Tarok search ({label}), first card of a deal, depth {depth}, one core "
          f"(paper: Athlon XP 1800+, depth 9)")
    print(f"{'config':>15} {'nodes':>11} {'nodes/s':>12} {'us/node':>8} {'paper':>7} {'x':>6}")
    us_all = None
    for name, (nodes, secs) in rates.items():
        us = secs / max(nodes, 1) * 1e6
        paper_us = TABLE1[f"table1.{name}"][3]
        us_all = us if name == "all" else us_all
        print(f"{name:>15} {nodes:11,d} {nodes / secs:12,.0f} {us:8.3f} {paper_us:7.1f} "
              f"{paper_us / us:6.1f}")
    return us_all


def main(quick: bool = False, record: Path | None = None) -> dict:
    """Run the benchmarks and print them; a full run (not ``quick``) writes ``record``
    (default ``data/tarok/bench.json``)."""
    depth = 6 if quick else 9
    out = {"machine": machine(), "depth": depth, "search": {}}
    us_all = None
    for variant in SEARCH_VARIANTS:
        rates = search_rates(depth, 1 if quick else 3, 2 if quick else 3, variant=variant)
        us = _print_search(rates, depth, variant)
        us_all = us if variant == "sound" else us_all
        out["search"][variant] = {k: list(v) for k, v in rates.items()}
    verdict = "met" if us_all < TARGET_US_PER_NODE else "NOT met"
    print(f"all enhancements: {us_all:.3f} us/node (target < {TARGET_US_PER_NODE} us: {verdict})")
    secs = 0.3 if quick else 2.0
    out.update(us_per_node_all=us_all, deals_per_s=our_deal_rate(secs))
    print(f"random deals/s (deal, talon, discards, play; ours): {out['deals_per_s']:,.0f}")
    lfl = like_for_like(20 if quick else 200, secs)
    out["like_for_like"] = lfl
    if lfl is None:
        print("OpenSpiel not installed: no like-for-like comparison")
    else:
        print(f"random games/s from the same {lfl['start_states']} start states (48 plies): "
              f"ours {lfl['ours']:,.0f}, OpenSpiel C++ loop {lfl['openspiel_cpp']:,.0f} "
              f"({lfl['ours'] / lfl['openspiel_cpp']:.1f}x), Python loop "
              f"{lfl['openspiel_python']:,.0f} ({lfl['ours'] / lfl['openspiel_python']:.1f}x)")
    if not quick:
        path = Path(record) if record is not None else RECORD
        path.write_text(json.dumps(out, indent=2) + "\n")
        print(f"record written to {path}")
    return out


if __name__ == "__main__":
    main()
