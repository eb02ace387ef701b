"""Strategy fusion, read from determinized UCT's own trees on real positions of the study.

Frank and Basin (1998) name *strategy fusion* as a weakness of determinization: a search on one
deal may plan to play differently in deals the player cannot tell apart, which no real player
can, and each such plan makes its deal's value of the root move too good. Determinized UCT grows
one tree per deal, so it can; SO-ISMCTS keeps one node per information set of the searcher, so
its own later moves cannot differ between deals it cannot tell apart.

At every decision with a choice of the seat under test, in games on the study's deals with the
baseline in every seat (:func:`gameai.crossgame.play.baseline_game`), :func:`paired_plans` draws
``deals`` deals as determinized UCT draws them and grows two UCT trees of ``iters`` iterations on
each (:func:`gameai.crossgame.search.uct_tree`). In each tree the most visited line is followed
from the root to the searcher's next decision, and the move the tree plans there (its most
visited child) is read, with the information set it is read in (recognised by the
determinization the position gives with one fixed seed: a determinization is a function of
what the searcher knows, which the chapter's twin-state tests check).

Two trees can plan different moves in one information set for two reasons: their deals differ
(fusion) or the search is noisy. :func:`compare_plans` separates them in each information set
that plans reach: the share of pairs of trees on *different* deals that plan differently, minus
the share of the two trees on the *same* deal that do. What is left is how much the plan depends
on a deal the player cannot see: a plan no real player can follow, which makes a determinized
search's value of its root move too good and which SO-ISMCTS's tree cannot hold.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from . import games as G
from . import search as S
from .adapters import durak
from .play import EXPLORATION, baseline_game

#: Deals per position (two trees on each) and iterations per tree: a tree of 1,000 iterations
#: is one of the ten of determinized UCT's fixed split at 10,000.
DEALS = 8
ITERS = 1_000
#: A tree's plan is read only along a line every node of which it visited at least this often.
MIN_VISITS = 20
#: The seed of the determinization that names an information set (any fixed seed will do).
FINGERPRINT_SEED = 12345
#: Part of each task's config: 2 since Durak's information sets are named without the values
#: no rule reads (version 1 told apart positions the searcher cannot, in Durak only).
VERSION = 2


def _most_visited(tn, wins, v: int) -> int:
    """The child of ``v`` with the most visits (ties: the larger reward sum, then the smaller
    key), or -1 when it has none."""
    best, best_rank = -1, None
    ch = tn[v, S.N_FIRST]
    while ch >= 0:
        rank = (tn[ch, S.N_VISITS], wins[ch], -tn[ch, S.N_KEY])
        if best_rank is None or rank > best_rank:
            best, best_rank = ch, rank
        ch = tn[ch, S.N_SIBLING]
    return int(best)


def information_set(x: np.ndarray, g: np.ndarray, seat: int) -> bytes:
    """A name for ``seat``'s information set at ``x``: the determinization ``seat`` would draw
    there with :data:`FINGERPRINT_SEED`, equal for positions ``seat`` cannot tell apart (tested
    for every game). Durak's state keeps values no rule reads again (played cards' old slots,
    the deal's order) that differ between such positions: they are cleared first
    (:func:`gameai.crossgame.adapters.durak.clear_unread`)."""
    out = np.empty_like(x)
    G.determinize(x, g, seat, np.random.default_rng(FINGERPRINT_SEED), out)
    if g[0] == G.GAME_DURAK:
        durak.clear_unread(out, g)
    return out.tobytes()


def planned_move(d0: np.ndarray, g: np.ndarray, seat: int, tn, wins) -> tuple[bytes, int] | None:
    """Where the tree ``tn`` grown on the deal ``d0`` expects ``seat``'s next decision and what
    it plans there: ``(information set, move key)`` along the most visited line, or None when
    the line is thin (a node visited fewer than :data:`MIN_VISITS` times), the game ends first,
    or the next decision has one legal move."""
    x = d0.copy()
    mv = np.empty(G.MAX_MOVES, dtype=np.int64)
    v = 0
    while True:
        ch = _most_visited(tn, wins, v)
        if ch < 0 or tn[ch, S.N_VISITS] < MIN_VISITS:
            return None
        k = G.legal(x, g, mv)
        key = tn[ch, S.N_KEY]
        G.apply(x, g, next(mv[j] for j in range(k) if G.move_key(x, g, mv[j]) == key))
        v = ch
        p = G.current(x, g)
        if p < 0:
            return None
        if p == seat:
            break
    ch = _most_visited(tn, wins, v)
    if G.legal(x, g, mv) < 2 or ch < 0 or tn[ch, S.N_VISITS] < MIN_VISITS:
        return None
    return information_set(x, g, seat), int(tn[ch, S.N_KEY])


def paired_plans(s: np.ndarray, g: np.ndarray, seat: int, rng: np.random.Generator,
                 deals: int = DEALS, iters: int = ITERS) -> list[tuple]:
    """For each of ``deals`` deals drawn from ``seat``'s view of ``s`` (``seat`` to move), the
    plans (:func:`planned_move`, None where unreadable) of two UCT trees of ``iters``
    iterations grown on it."""
    out = []
    d0 = np.empty_like(s)
    for _ in range(deals):
        G.determinize(s, g, seat, rng, d0)
        pair = []
        for _ in range(2):
            tn, wins, _ = S.uct_tree(d0, g, iters, EXPLORATION, rng)
            pair.append(planned_move(d0, g, seat, tn, wins))
        out.append(tuple(pair))
    return out


def compare_plans(pairs: list[tuple]) -> list[tuple[float, float]]:
    """Per information set that plans of both kinds reach: ``(same deal, different deals)``,
    the share of the same-deal pairs of trees (the two trees of one deal) and of the
    different-deal pairs (the first tree of one deal, the second of another) that plan
    different moves there."""
    out = []
    for info in {p[0] for pair in pairs for p in pair if p is not None}:
        def move(p):
            return p[1] if p is not None and p[0] == info else None
        first, second = [move(a) for a, _ in pairs], [move(b) for _, b in pairs]
        same = [a != b for a, b in zip(first, second) if a is not None and b is not None]
        other = [a != b for i, a in enumerate(first) for j, b in enumerate(second)
                 if i != j and a is not None and b is not None]
        if same and other:
            out.append((float(np.mean(same)), float(np.mean(other))))
    return out


def fusion_game(game: str, index: int, seed: int, rng: np.random.Generator,
                deals: int = DEALS, iters: int = ITERS) -> dict[str, float]:
    """Game ``index`` of ``game`` (the baseline in every seat): every decision with a choice of
    the seat under test read by :func:`paired_plans` and :func:`compare_plans`. Row:
    ``positions``, ``plans`` (trees whose plan could be read, of ``2 * deals`` a position),
    ``sets`` (information sets compared), and over them the sums ``same_deal`` and
    ``other_deals`` of the two shares of differing plans."""
    row = dict.fromkeys(("positions", "plans", "sets", "same_deal", "other_deals"), 0)
    for s, g, seat, p, _ in baseline_game(game, index, seed, rng):
        if p != seat:
            continue
        pairs = paired_plans(s, g, seat, rng, deals, iters)
        shares = compare_plans(pairs)
        row["positions"] += 1
        row["plans"] += sum(p is not None for pair in pairs for p in pair)
        row["sets"] += len(shares)
        row["same_deal"] += sum(a for a, _ in shares)
        row["other_deals"] += sum(b for _, b in shares)
    return row


def game_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> dict:
    """The store's task: :func:`fusion_game` for ``config`` (``game``, ``deal_seed``,
    ``deals``, ``iters``)."""
    return fusion_game(config["game"], index, int(config["deal_seed"]), rng,
                       int(config["deals"]), int(config["iters"]))
