"""What the opponents' moves tell the searcher: non-locality, measured on the study's deals.

Frank and Basin (1998) name *non-locality* as a weakness of determinization: some deals are
unlikely given how the opponents have played, yet a uniform determinization weighs them like any
other. All three searches of the chapter draw their deals uniformly from what the searcher has
seen (:func:`gameai.crossgame.games.determinize`), so each is exposed to it alike. How much it
matters in a game depends on how much the opponents' moves say about their hidden cards, which
this module measures directly.

In a game of the study's deals with the baseline in every seat (:func:`game_task`), at every
decision of an opponent of the seat under test that has more than one legal move:

1. the opponent (the baseline) makes its move ``m``;
2. from the position just before ``m``, deals are drawn as the seat under test would draw them,
   and those in which ``m`` was possible (the opponent held its cards) are kept: the deals a
   determinization gives equal weight once ``m`` is public;
3. in each kept deal the baseline is asked for its move: the share that gives ``m`` is the
   move's likelihood over the deals the searches draw (``p_uniform``); asked the same number
   of times in the true deal, the share that gives ``m`` is ``p_true`` (1 for a baseline with
   no random tie-breaks).

Where ``p_uniform`` is far below ``p_true`` the move singled out the true deal among those
drawn: information every search here throws away. Where the two agree (Kingdomino, whose hidden
information is the future draw order, which no player sees) non-locality has nothing to work on.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from . import games as G
from .play import baseline_game

#: Deals kept per opponent move, and the most drawn to find them (a move that needs several
#: particular cards may be possible in few deals; a move found in none is left out and counted).
DRAWS = 20
MAX_TRIES_PER_DRAW = 50


def _keys(s, g, mv, k) -> set[int]:
    return {int(G.move_key(s, g, mv[j])) for j in range(k)}


def move_likelihoods(s: np.ndarray, g: np.ndarray, seat: int, move: int, draws: int,
                     rng: np.random.Generator) -> tuple[float, float, int, int]:
    """For the baseline's ``move`` in ``s`` (an opponent of ``seat`` to move): ``(p_uniform,
    p_true, kept, tried)`` - the share of ``draws`` kept determinizations (drawn as ``seat``
    draws them, kept when ``move`` was possible) in which the baseline makes ``move``, the share
    of ``draws`` asks in ``s`` itself that give ``move``, the deals kept and the deals drawn.
    ``p_uniform`` is NaN when no deal of ``draws * MAX_TRIES_PER_DRAW`` allowed the move."""
    key = int(G.move_key(s, g, move))
    same = sum(int(G.move_key(s, g, G.baseline(s, g, rng))) == key for _ in range(draws))
    d = np.empty_like(s)
    mv = np.empty(G.MAX_MOVES, dtype=np.int64)
    kept = hits = tried = 0
    while kept < draws and tried < draws * MAX_TRIES_PER_DRAW:
        G.determinize(s, g, seat, rng, d)
        tried += 1
        if key not in _keys(d, g, mv, G.legal(d, g, mv)):
            continue
        kept += 1
        hits += int(G.move_key(d, g, G.baseline(d, g, rng))) == key
    return (hits / kept if kept else float("nan")), same / draws, kept, tried


def likelihood_game(game: str, index: int, seed: int, rng: np.random.Generator,
                    draws: int = DRAWS) -> dict[str, float]:
    """Game ``index`` of ``game`` on the study's deals with the baseline in every seat, the seat
    under test rotating as in :func:`gameai.crossgame.play.play`; every opponent move with a
    choice is weighed by :func:`move_likelihoods`. Row: ``moves`` (weighed), ``skipped`` (no
    drawn deal allowed the move), the means over the weighed moves of ``p_uniform`` and
    ``p_true``, and ``kept`` (the share of drawn deals that allowed the move)."""
    uniform, true = [], []
    kept = tried = skipped = 0
    for s, g, seat, p, m in baseline_game(game, index, seed, rng):
        if p == seat:
            continue
        pu, pt, k, t = move_likelihoods(s, g, seat, m, draws, rng)
        kept, tried = kept + k, tried + t
        if k:
            uniform.append(pu)
            true.append(pt)
        else:
            skipped += 1
    nan = float("nan")
    return {"moves": len(uniform), "skipped": skipped,
            "p_uniform": float(np.mean(uniform)) if uniform else nan,
            "p_true": float(np.mean(true)) if true else nan,
            "kept": kept / tried if tried else nan}


def game_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> dict:
    """The store's task: :func:`likelihood_game` for ``config`` (``game``, ``deal_seed``,
    ``draws``)."""
    return likelihood_game(config["game"], index, int(config["deal_seed"]), rng,
                           int(config["draws"]))
