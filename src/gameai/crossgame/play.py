"""One game of the cross-game study: a searcher in the seat under test, the game's baseline
player (the paper's AI) in every other seat.

The deal depends only on the root seed, the game and the game's index, never on the search or
its budget, so every search and budget - and the baseline itself in the seat under test, which
gives the reference level - plays the same deals (paired comparisons). The seat under test
rotates with the game's index. Decisions with a single legal move are played without searching.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np

from . import games as G
from . import search as S
from .adapters import durak, frankszoo, kingdomino, tarok


@dataclass(frozen=True)
class GameSetting:
    """One column of the study: an adapter and the options of its ``new_game``."""

    label: str
    adapter: Any
    options: Mapping[str, Any]
    baseline: str  # the baseline player, in words
    headline: str  # the measure the chapter plots (a key of the adapter's ``measure``)
    seat_option: str = ""  # new_game option naming the seat under test (tarok's declarer)

    def new_game(self, rng: np.random.Generator, seat: int):
        extra = {self.seat_option: seat} if self.seat_option else {}
        return self.adapter.new_game(rng, **self.options, **extra)


#: The games and their baselines, in the chapter's order.
SETTINGS: dict[str, GameSetting] = {
    "frankszoo": GameSetting("Frank's Zoo, 4 players", frankszoo, {}, "HeuristicAI", "win"),
    "kingdomino": GameSetting("Kingdomino, 4 players", kingdomino, {}, "FG", "win"),
    "tarok": GameSetting("Tarok, declarer in 'three'", tarok, {}, "rule-based", "win",
                         seat_option="declarer"),
    "durak2": GameSetting("Durak, 2 players", durak, {"n_players": 2}, "EvalAI", "fool"),
    "durak4": GameSetting("Durak, 4 players", durak, {"n_players": 4}, "EvalAI", "fool"),
}
#: Determinized UCT with the number of determinizations its sweep found best (per game and
#: budget): a player of the study, played by the search ``det_uct``.
TUNED = "det_uct_tuned"
#: Searches, the tuned determinized UCT and the baseline in the seat under test (the reference
#: level), in the chapter's order.
PLAYERS = (S.SEARCHES[0], S.SEARCHES[1], TUNED, S.SEARCHES[2], "baseline")
#: The exploration constant of every search (UCB1, rewards in [0, 1]).
EXPLORATION = 0.7


def deal_rng(seed: int, game: str, index: int) -> np.random.Generator:
    """The stream that deals game ``index`` of ``game``: the same for every search and budget."""
    return np.random.default_rng([seed, list(SETTINGS).index(game), index])


def n_seats(game: str) -> int:
    s, g = SETTINGS[game].new_game(deal_rng(0, game, 0), 0)
    return int(G.n_seats(g))


def deal(game: str, index: int, seed: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Game ``index`` of ``game`` as dealt: ``(s, g, seat)``, the seat under test rotating with
    the index (tarok: the declarer's seat)."""
    setting = SETTINGS[game]
    s, g = setting.new_game(deal_rng(seed, game, index), 0)
    seat = index % int(G.n_seats(g))
    if seat:
        s, g = setting.new_game(deal_rng(seed, game, index), seat)
    return s, g, seat


def baseline_game(game: str, index: int, seed: int, rng: np.random.Generator):
    """Game ``index`` of ``game`` on the study's deals with the baseline in every seat, move by
    move: yields ``(s, g, seat, player, move)`` before each move with a choice is applied
    (``s`` is the live state: copy it to keep it). The chapter's measures of what
    determinization throws away (:mod:`.nonlocality`, :mod:`.fusion`) read real positions
    from it."""
    s, g, seat = deal(game, index, seed)
    mv = np.empty(G.MAX_MOVES, dtype=np.int64)
    while (p := G.current(s, g)) >= 0:
        m = G.baseline(s, g, rng)
        if G.legal(s, g, mv) > 1:
            yield s, g, seat, p, m
        G.apply(s, g, m)


def play(game: str, player: str, budget: int, index: int, seed: int,
         rng: np.random.Generator, clock: Callable[[], float] = time.perf_counter,
         exploration: float = EXPLORATION, n_det: int = 0) -> dict:
    """Game ``index``: ``player`` (a search or ``"baseline"``) in seat ``index % n`` with
    ``budget`` iterations per decision, UCB1 constant ``exploration`` (the chapter's
    :data:`EXPLORATION` but in its sensitivity check) and, for determinized UCT, ``n_det``
    determinizations (0: the fixed split, :func:`.search.det_count`). Row: the adapter's measures for that
    seat, ``seat``, ``decisions`` (searched), ``nodes`` (mean tree nodes per searched
    decision), ``nodes_max``, ``seconds`` (spent searching: machine-dependent, for the speed
    table only; the store leaves timing columns out of its reproducibility checks)."""
    setting = SETTINGS[game]
    s, g, seat = deal(game, index, seed)
    search_id = S.SEARCH_IDS.get(player, -1)
    mv = np.empty(G.MAX_MOVES, dtype=np.int64)
    decisions = nodes = nodes_max = 0
    seconds = 0.0
    while (p := G.current(s, g)) >= 0:
        if p == seat and search_id >= 0 and G.legal(s, g, mv) > 1:
            t0 = clock()
            m, k = S.search_move(search_id, s, g, budget, exploration, rng, n_det)
            seconds += clock() - t0
            decisions += 1
            nodes += k
            nodes_max = max(nodes_max, k)
        else:
            m = G.baseline(s, g, rng)
        G.apply(s, g, m)
    row = {name: float(v) for name, v in setting.adapter.measure(s, g, seat).items()}
    row.update(seat=seat, decisions=decisions, nodes=nodes / decisions if decisions else 0.0,
               nodes_max=nodes_max, seconds=round(seconds, 6))
    return row
