"""``gameai bench kingdomino``: our playouts per second against the authors' (paper Fig. 6),
and our UCT iterations per second against the authors' own, like for like.

For each playout policy (TR, eps-G, PG, FG) and move index 1..13 we time exactly what an MCE
agent does per playout - copy the position, play a uniformly random root move, play out with
the policy, score with R - from positions of FG self-play games at the player's move of that
index, on one core. The ratio to the authors' rates (``paper.PLAYOUT_RATES``: Java, one thread,
3.2 GHz) is the chapter's speed claim; the issue's targets are >= 10x their TR rate and >= 6x
their FG rate at every move index.

Time is the process's CPU time (``time.process_time``): on a shared machine wall clock also
counts the time other processes hold the core; on an idle one the two agree. The playouts run
in one thread (set ``NUMBA_NUM_THREADS=1``; nothing here is parallel).

UCT (:func:`uct_rates`): for each of Table III's twelve UCT strategies and move index 1..13 we
time a UCT search of exactly the authors' mean iterations for that cell and move at T = 1 s
(``paper.authors_iterations``, their move order) from the same positions, and divide by the
iterations per second the authors' agents achieved there (their raw result files,
``authors_rates.csv``). A tree's cost per iteration changes with its size, so this compares
searches of the same size, as the like-for-like Table III plays them.

Greedy playouts (:func:`greedy_speedup`, issue 45): the greedy playout as it was before it was
made faster (``reference.playout_reference``) and as the engine plays it now, timed side by
side in one run from the same positions and seeds, with the ratio; both must play the same
games (``tests/kingdomino/test_kd_speed.py`` checks it move for move).

Old and new, whole games (:func:`engine_speedup`, issue 45): the rates above leave FG's memo
out - they are the engine's speed per playout, as the authors' rates are. Whole Table III games
of every strategy, in our rule and like for like, are timed as the engine played them before
issue 45's speed-ups (``agents.former_engine``: the former greedy, no memo) and as it plays them
now, side by side from the same seeds (``tests/kingdomino/test_kd_speed.py`` checks that both
play the same games). ``python -m gameai.kingdomino.bench --engine`` times them alone and adds
them to the committed record with their own machine stamp (:func:`record_engine`).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from ..core.benchrecord import add_to_record, write_record
from .agents import (
    AG_BIAS,
    AG_C,
    AG_ORDER,
    AG_POLICY,
    AG_W,
    AGENT_NAMES,
    AGENTS,
    KIND_MCE,
    KIND_UCT,
    TABLE3_STRATEGIES,
    agent_row,
    budget,
    canonical_name,
    choose_move,
    former_engine,
    play_game,
    uct_move,
)
from .paper import PLAYOUT_RATES, authors_iterations, authors_rates
from .policies import (
    GREEDY_AUTHORS,
    POL_EG,
    POL_FG,
    POL_PG,
    POLICY_NAMES,
    MEMO_BITS,
    SC_R,
    new_buffers,
    new_memo,
    playout,
    reward,
)
from .reference import playout_reference
from .rules import (
    G_DONE,
    G_LEN,
    G_ROUND,
    KLEN,
    MAX_MOVES,
    N_PLAYERS,
    N_ROUNDS,
    apply_move,
    copy_into,
    current_player,
    legal_moves,
    new_game,
    randint,
    score,
)

TARGETS = {"TR": 10.0, "FG": 6.0}
#: T (seconds per ply) of the games :func:`engine_speedup` times: the issue's T >= 4 s
ENGINE_BENCH_T = 4.0


@njit(cache=True)
def _fg_positions(ag, rng, Gs, Ks):
    """Snapshots of an FG x 4 game at seat 0's move in each round (Gs[r], Ks[r])."""
    G, K = new_game(rng)
    pb, gb, scratch = new_buffers()
    memo = new_memo()
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    while G[G_DONE] == 0:
        p = current_player(G)
        if p == 0:
            Gs[G[G_ROUND] - 1] = G
            Ks[G[G_ROUND] - 1] = K
        m, _ = choose_move(G, K, ag[p], rng, mv, pb, gb, scratch, draft, memo)
        apply_move(G, K, m, rng, draft, False)


@njit(cache=True)
def mce_playouts(G, K, policy, n, rng):
    """``n`` MCE playouts from (G, K) as ``agents.mce_move`` runs them, without FG's memo (the
    engine's speed per playout, as the authors' rates are; :func:`engine_speedup` times what the
    greedy's rewrite and the memo save in whole games); returns the reward sum."""
    me = current_player(G)
    pb, gb, scratch = new_buffers()
    memo = new_memo(0)
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    nm = legal_moves(G, K, mv, pb[0])
    G2 = np.empty_like(G)
    K2 = np.empty_like(K)
    total = 0.0
    for _ in range(n):
        copy_into(G2, G)
        copy_into(K2, K)
        apply_move(G2, K2, mv[randint(rng, nm)], rng, draft, False)
        playout(G2, K2, policy, me, rng, pb, gb, scratch, draft, memo)
        total += reward(K2, me, SC_R)
    return total


def positions(n_games: int, rng: np.random.Generator):
    """(Gs, Ks): ``Gs[g, r]`` / ``Ks[g, r]`` = seat 0 to move in round r + 1 of FG game g."""
    ag = np.stack([agent_row("FG")] * N_PLAYERS)
    Gs = np.zeros((n_games, N_ROUNDS, G_LEN), dtype=np.int64)
    Ks = np.zeros((n_games, N_ROUNDS, N_PLAYERS, KLEN), dtype=np.int64)
    for g in range(n_games):
        _fg_positions(ag, rng, Gs[g], Ks[g])
    return Gs, Ks


def playout_rates(seconds_per_cell: float = 0.3, n_games: int = 6, seed: int = 0) -> dict:
    """Our playouts per second: {policy: [rate at move index 1..13]}."""
    rng = np.random.default_rng(seed)
    Gs, Ks = positions(n_games, rng)
    mce_playouts(Gs[0, 5], Ks[0, 5], 0, 2, rng)  # compile / load the numba cache
    out = {}
    for pol, name in enumerate(POLICY_NAMES):
        rates = []
        for r in range(N_ROUNDS):
            # a first guess (10x the authors) sizes the batches to about seconds_per_cell
            per_pos = max(4, int(seconds_per_cell * 10 * PLAYOUT_RATES[name][r] / n_games))
            t0 = time.process_time()
            for g in range(n_games):
                mce_playouts(Gs[g, r], Ks[g, r], pol, per_pos, rng)
            rates.append(per_pos * n_games / (time.process_time() - t0))
        out[name] = rates
    return out


#: The budget of the UCT bench: the authors' per-move iterations of Table III's T = 1 s column.
UCT_BENCH_T = 1.0


def uct_strategies() -> list[str]:
    """Table III's twelve UCT strategies, in the registry's order."""
    return [n for n in AGENT_NAMES if AGENTS[n][0] == KIND_UCT]


def authors_uct_rates(T: float = UCT_BENCH_T) -> dict[str, list[float]]:
    """The authors' mean UCT iterations per second, {strategy: [move 1..13]}, at budget ``T``
    (their raw result files: (root visits - 1) / elapsed, averaged over the cell's games)."""
    df = authors_rates()
    df = df[(df["T"] - T).abs() < 1e-9].sort_values("move")
    return {s: [float(x) for x in df[df["strategy"] == s]["mean_rate"]] for s in uct_strategies()}


def uct_rates(n_games: int = 3, seed: int = 0, T: float = UCT_BENCH_T,
              strategies: list[str] | None = None) -> dict[str, list[float | None]]:
    """Our UCT iterations per CPU second, {strategy: [move 1..13]}, each search of the authors'
    mean iterations for that cell and move (rounded), in their move order. A position with a
    single legal move is no search (UCT returns at once) and is left out; a move index with
    no search at all is None."""
    rng = np.random.default_rng(seed)
    Gs, Ks = positions(n_games, rng)
    pb, gb, scratch = new_buffers()
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    uct_move(Gs[0, 5].copy(), Ks[0, 5].copy(), np.int64(0), np.int64(0), 0.6, 0.1, 2, rng, mv,
             pb, gb, scratch, draft, new_memo(0), np.int64(0))  # compile / load the numba cache
    out: dict[str, list[float | None]] = {}
    for name in strategies or uct_strategies():
        budgets = authors_iterations(name, T)
        a = agent_row(name, T, move_order="authors", iterations=budgets)
        args = (np.int64(a[AG_POLICY]), np.int64(a[AG_BIAS]), a[AG_C], a[AG_W])
        rates: list[float | None] = []
        for r in range(N_ROUNDS):
            done, seconds = 0, 0.0
            for g in range(n_games):
                G, K = Gs[g, r].copy(), Ks[g, r].copy()
                t0 = time.process_time()
                _, n = uct_move(G, K, *args, max(1, round(budgets[r])), rng, mv, pb, gb, scratch,
                                draft, new_memo(0), np.int64(a[AG_ORDER]))
                if n:
                    done += n
                    seconds += time.process_time() - t0
            rates.append(done / seconds if done and seconds > 0 else None)
        out[name] = rates
    return out


def uct_ratios(ours: dict[str, list[float | None]],
               authors: dict[str, list[float]]) -> dict[str, list[float]]:
    """Ours / the authors' iterations per second, per strategy, over the move indices that
    both measured."""
    return {s: [o / a for o, a in zip(ours[s], authors[s]) if o is not None and a > 0]
            for s in ours}


#: The greedy playouts timed by :func:`greedy_speedup`: FG (ours and the authors'), PG, eps-G.
GREEDY_POLICIES = {"FG": POL_FG, "FG (authors')": POL_FG + GREEDY_AUTHORS, "PG": POL_PG,
                   "εG": POL_EG}


@njit(cache=True)
def _greedy_playouts(G, K, policy, n, rng, reference):
    """``n`` playouts from (G, K) with the engine's greedy (``policies.playout``) or, with
    ``reference``, the former one (``reference.playout_reference``); returns the sum of the
    searcher's final scores (the same for both: they play the same games)."""
    me = current_player(G)
    pb, gb, scratch = new_buffers()
    memo = new_memo(0)  # the greedy code alone: no FG memo
    draft = np.empty(4, dtype=np.int64)
    G2 = np.empty_like(G)
    K2 = np.empty_like(K)
    total = 0
    for _ in range(n):
        copy_into(G2, G)
        copy_into(K2, K)
        if reference:
            playout_reference(G2, K2, policy, me, rng, pb, gb, scratch, draft)
        else:
            playout(G2, K2, policy, me, rng, pb, gb, scratch, draft, memo)
        total += score(K2[me])
    return total


def _side_by_side(run, a, b, n: int) -> tuple[float, float, bool]:
    """Time two variants of one computation in the same process: ``run(variant, i)`` returns
    (CPU seconds, outcome) for i in range(n), ``a`` first on even i and ``b`` first on odd i, so
    a machine that speeds up or slows down meanwhile favours neither. Returns (seconds of
    ``a``, seconds of ``b``, whether every outcome of ``a`` equals ``b``'s)."""
    spent = {a: 0.0, b: 0.0}
    same = True
    for i in range(n):
        ends = {}
        for v in ((a, b) if i % 2 == 0 else (b, a)):
            dt, ends[v] = run(v, i)
            spent[v] += dt
        same = same and ends[a] == ends[b]
    return spent[a], spent[b], same


def greedy_speedup(n_games: int = 4, per_position: int = 20, repeats: int = 3,
                   seed: int = 0) -> dict[str, dict[str, float]]:
    """The former greedy playout (``reference``) against the engine's (issue 45), side by side in
    one process: from seat 0's positions of ``n_games`` FG games at every move index, each
    policy of :data:`GREEDY_POLICIES` plays ``per_position`` playouts per position with both,
    from the same seeds, alternating which goes first, ``repeats`` times. Returns
    {policy: {"old_s", "new_s" (CPU seconds in all), "speedup" (old / new), "same" (both
    played the same games: equal score sums)}}."""
    Gs, Ks = positions(n_games, np.random.default_rng(seed))
    flat = [(Gs[g, r], Ks[g, r]) for g in range(n_games) for r in range(N_ROUNDS)]
    out = {}
    for name, policy in GREEDY_POLICIES.items():
        for ref in (True, False):  # compile / load the numba cache outside the clock
            _greedy_playouts(flat[0][0], flat[0][1], policy, 1, np.random.default_rng(0), ref)

        def run(ref, rep):
            rng = np.random.default_rng([seed, rep])
            t0 = time.process_time()
            total = sum(_greedy_playouts(G, K, policy, per_position, rng, ref) for G, K in flat)
            return time.process_time() - t0, total

        old_s, new_s, same = _side_by_side(run, True, False, repeats)
        out[name] = {"old_s": old_s, "new_s": new_s, "speedup": old_s / new_s, "same": same}
    return out


def print_greedy_speedup(speed: dict[str, dict[str, float]]) -> None:
    print("Greedy playouts, the former code (kingdomino.reference) vs now, same positions and "
          "seeds, one process:")
    for name, v in speed.items():
        print(f"  {name:14} old {v['old_s']:6.2f} s  new {v['new_s']:6.2f} s  "
              f"speed-up {v['speedup']:4.2f}x  same games: {'yes' if v['same'] else 'NO'}")


#: The two Table III experiments :func:`engine_speedup` times: our rule (FG opponents, budgets
#: from T) and like for like (the authors' budgets, move order and FG* opponents).
TABLE3_EXPERIMENTS = ("rule", "authors")


def _table3_agents(experiment: str, player: str, T: float) -> np.ndarray:
    """The seats of a Table III game: ``rule`` (ours: FG opponents, budgets from T) or
    ``authors`` (like for like: their budgets, move order and FG* opponents)."""
    from .experiments import game_config, seat_rows

    cfg = {"player": player, "opponent": "FG", "T": T}
    if experiment == "authors":
        cfg.update(budget="authors", move_order="authors", opponent="FG*")
    return seat_rows(game_config(cfg))


def _timed_game(ag: np.ndarray, seed: int, memo_bits: int) -> tuple[float, tuple]:
    """(CPU seconds, outcome) of one game of ``ag`` from seed ``seed``; the outcome (kingdoms,
    playouts, the next random number) is equal for two games only if they made the same moves
    with the same draws."""
    scores = np.zeros((N_PLAYERS, N_ROUNDS), dtype=np.int64)
    playouts = np.zeros(N_PLAYERS, dtype=np.int64)
    rng = np.random.default_rng([45, seed])
    t0 = time.process_time()
    K = play_game(ag, rng, scores, playouts, memo_bits)
    return time.process_time() - t0, (K.tolist(), playouts.tolist(), rng.random())


def engine_speedup(T: float = ENGINE_BENCH_T, n_games: int = 1,
                   experiments: tuple[str, ...] = TABLE3_EXPERIMENTS,
                   strategies: tuple[str, ...] = TABLE3_STRATEGIES) -> dict[str, dict[str, float]]:
    """Whole Table III games, the engine as it was before issue 45's speed-ups (``old``:
    ``agents.former_engine``, the former greedy of ``reference`` and no FG memo) against the
    engine as it is (``new``: its greedy and FG's memo), side by side in one process from the
    same seeds, alternating which goes first: every strategy of ``strategies`` in every
    experiment of ``experiments``. Returns {"experiment/player": {"old_s", "new_s" (CPU seconds
    per game), "speedup", "same" (both ended in the same kingdoms with the same playouts and
    draws)}}. Everything else - TR playouts, the UCT tree - is the same code in both."""
    bad = [e for e in experiments if e not in TABLE3_EXPERIMENTS]
    if bad:
        raise ValueError(f"experiments must be among {', '.join(TABLE3_EXPERIMENTS)}; got {bad!r}")
    if n_games < 1:
        raise ValueError(f"n_games must be at least 1, got {n_games!r}")
    warm = _table3_agents("rule", "UCT_W-PG", 0.01)  # compile / load the numba cache
    _timed_game(former_engine(warm), 0, 0)
    _timed_game(warm, 0, MEMO_BITS)
    out = {}
    for experiment in experiments:
        for player in strategies:
            ag = _table3_agents(experiment, player, T)
            variants = {"old": (former_engine(ag), 0), "new": (ag, MEMO_BITS)}
            old_s, new_s, same = _side_by_side(lambda v, i: _timed_game(variants[v][0], i,
                                                                        variants[v][1]),
                                               "old", "new", n_games)
            out[f"{experiment}/{player}"] = {"old_s": old_s / n_games, "new_s": new_s / n_games,
                                             "speedup": old_s / new_s, "same": same}
    return out


def playout_policy(player: str) -> str:
    """The playout policy of a Table III strategy ("TR", "εG", "PG", "FG"), or "none" for a
    static player (FG)."""
    kind, pol, _, _ = AGENTS[canonical_name(player)]
    return POLICY_NAMES[pol] if kind in (KIND_MCE, KIND_UCT) else "none"


def engine_totals(speed: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """:func:`engine_speedup` summed per experiment and playout policy ("rule/TR", ...) and per
    experiment ("rule/all": a game of every strategy): {"old_s", "new_s", "speedup", "cells",
    "same"}."""
    out: dict[str, dict[str, float]] = {}
    for key, v in speed.items():
        experiment, player = key.split("/", 1)
        for group in (f"{experiment}/{playout_policy(player)}", f"{experiment}/all"):
            g = out.setdefault(group, {"old_s": 0.0, "new_s": 0.0, "cells": 0, "same": True})
            g["old_s"] += v["old_s"]
            g["new_s"] += v["new_s"]
            g["cells"] += 1
            g["same"] = g["same"] and v["same"]
    for g in out.values():
        g["speedup"] = g["old_s"] / g["new_s"] if g["new_s"] > 0 else float("nan")
    groups = ("TR", "εG", "PG", "FG", "none", "all")
    order = [f"{e}/{g}" for e in TABLE3_EXPERIMENTS for g in groups]
    return {k: out[k] for k in order if k in out}


def print_engine_speedup(speed: dict[str, dict[str, float]], T: float) -> None:
    print(f"Table III games at T = {T:g} s, the engine before issue 45 (old) vs now (new), same "
          "seeds, one process (CPU seconds per game):")
    for name, v in speed.items():
        print(f"  {name:18} old {v['old_s']:6.2f} s  new {v['new_s']:6.2f} s  "
              f"speed-up {v['speedup']:4.2f}x  same games: {'yes' if v['same'] else 'NO'}")
    print("  summed by playout policy, and over every strategy (a game of each):")
    for name, v in engine_totals(speed).items():
        what = "strategy" if v["cells"] == 1 else "strategies"
        print(f"  {name:18} old {v['old_s']:6.2f} s  new {v['new_s']:6.2f} s  "
              f"speed-up {v['speedup']:4.2f}x  ({v['cells']} {what})")


def seconds_per_game(strategy: str, T: float, rates: dict) -> float:
    """Estimated CPU seconds of one game of ``strategy`` at ``T`` s per ply from our measured
    ``rates`` (``playout_rates()``): the sum over its 13 moves of budget / our rate. Static
    agents (and the FG opponents' own moves, about a millisecond a game) count as 0. An upper
    bound: moves with a single legal option cost nothing."""
    kind, pol, _, _ = AGENTS[canonical_name(strategy)]
    if kind not in (KIND_MCE, KIND_UCT):
        return 0.0
    name = POLICY_NAMES[pol]
    return sum(budget(name, T, m) / rates[name][m - 1] for m in range(1, N_ROUNDS + 1))


def main(quick: bool = False) -> dict:
    rates = playout_rates(0.05 if quick else 0.3, 3 if quick else 6)
    print("Kingdomino playouts per CPU second (one core) vs the authors' Java (paper Fig. 6)")
    print(f"{'move':>5} " + " ".join(f"{n + ' ours':>10} {'x':>6}" for n in POLICY_NAMES))
    for r in range(N_ROUNDS):
        cells = []
        for name in POLICY_NAMES:
            ours = rates[name][r]
            cells.append(f"{ours:10,.0f} {ours / PLAYOUT_RATES[name][r]:6.1f}")
        print(f"{r + 1:>5} " + " ".join(cells))
    ratios = {n: [rates[n][r] / PLAYOUT_RATES[n][r] for r in range(N_ROUNDS)] for n in rates}
    for name, target in TARGETS.items():
        worst = min(ratios[name])
        verdict = "met" if worst >= target else "NOT met"
        print(f"{name}: lowest ratio {worst:.1f}x (target {target:.0f}x at every move: {verdict})")
    print("Estimated CPU seconds per game at T = 1 s: " + ", ".join(
        f"{s} {seconds_per_game(s, 1.0, rates):.2f}" for s in ("MCE-TR/R", "MCE-FG/R", "UCT_W-FG")))
    speed = greedy_speedup(2 if quick else 4, 5 if quick else 20, 1 if quick else 3)
    print_greedy_speedup(speed)
    engine_T = 0.5 if quick else ENGINE_BENCH_T
    engine_games = 1 if quick else 2
    engine = engine_speedup(engine_T, engine_games)
    print_engine_speedup(engine, engine_T)
    uct = uct_rates(1 if quick else 3)
    uct_x = uct_ratios(uct, authors_uct_rates())
    print(f"UCT iterations per CPU second, like for like (the authors' budgets at T = "
          f"{UCT_BENCH_T:g} s), ours / the authors' over the move indices:")
    for name, r in uct_x.items():
        print(f"  {name:9} lowest {min(r):6.1f}x  median {np.median(r):6.1f}x  highest {max(r):7.1f}x")
    out = {"rates": rates, "ratios": ratios, "uct_rates": uct, "uct_ratios": uct_x,
           "greedy_speedup": speed, "engine_speedup": engine}
    if not quick:  # the book's speed paragraph reads this record (not re-measured at build)
        print("record:", write_record("kingdomino", {
            "seconds_per_cell": 0.3, "positions": 6, "rates": {k: list(v) for k, v in rates.items()},
            "uct_T": UCT_BENCH_T, "uct_positions": 3, "uct_rates": uct,
            "greedy_speedup": speed, "engine_T": engine_T, "engine_games": engine_games,
            "engine_speedup": engine}))
    return out


def record_engine(T: float = ENGINE_BENCH_T, n_games: int = 3) -> dict:
    """Time Table III games of the engine before and after issue 45 (:func:`engine_speedup`)
    and add them to the committed record with this machine's stamp (``engine_machine``),
    leaving its rates as they were measured: a side-by-side ratio stands on its own, so it need
    not wait for a quiet machine to re-measure every rate
    (``python -m gameai.kingdomino.bench --engine``)."""
    speed = engine_speedup(T, n_games)
    print_engine_speedup(speed, T)
    print("record:", add_to_record("kingdomino", {"engine_T": T, "engine_games": n_games,
                                                  "engine_speedup": speed}, "engine_machine"))
    return speed


if __name__ == "__main__":
    import sys

    record_engine() if sys.argv[1:] == ["--engine"] else main()
