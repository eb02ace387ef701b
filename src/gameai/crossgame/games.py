"""The small game interface the searches of :mod:`.search` are written against.

A game's state is one flat ``int64`` array ``s`` (each adapter packs its engine's arrays into
it and reads them back as views, so the engines' numba code runs unchanged) and its fixed
settings one ``int64`` array ``g`` whose ``g[0]`` names the game (``GAME_*``). Every function
here dispatches on ``g[0]`` to the adapter in :mod:`.adapters`, which implements:

``n_seats(g)``
    players in the game.
``current(s, g)``
    the seat to move, ``-1`` when the game is over.
``legal(s, g, mv)``
    writes the legal moves (``int64`` codes) into ``mv``; returns how many.
``move_key(s, g, m)``
    the identity of move ``m`` as every player sees it (the card played, not its slot in the
    hand): equal keys in two determinizations of one information set mean the same move.
``apply(s, g, m)``
    plays move ``m`` in place.
``determinize(s, g, seat, rng, out)``
    writes into ``out`` a random state that ``seat`` cannot tell from ``s``: the hidden cards
    (or future draws) re-dealt uniformly among the places ``seat`` cannot see, using only what
    ``seat`` knows - the result must not depend on where the hidden cards really are.
``playout(s, g, rng)``
    finishes the game in place with uniformly random moves.
``reward(s, g, seat)``
    the finished game's result for ``seat`` in [0, 1] (what the searches maximise).
``baseline(s, g, rng)``
    the move of the chapter's baseline player (the paper's AI) for the seat to move.

One dispatch layer rather than functions passed as arguments: numba caches code that calls
fixed functions, but not code that takes other compiled functions as arguments (it recompiles
them in every process), and a chapter run starts many processes.
"""

from __future__ import annotations

from numba import njit

from .adapters import durak as _durak
from .adapters import frankszoo as _frankszoo
from .adapters import kingdomino as _kingdomino
from .adapters import nim as _nim
from .adapters import tarok as _tarok

GAME_NIM = 0
GAME_DURAK = 1
GAME_FRANKSZOO = 2
GAME_KINGDOMINO = 3
GAME_TAROK = 4

#: Room for the legal moves of any game (Kingdomino's pick-and-place moves are the most).
MAX_MOVES = 4096


@njit(cache=True)
def n_seats(g):
    gid = g[0]
    if gid == GAME_DURAK:
        return _durak.n_seats(g)
    if gid == GAME_FRANKSZOO:
        return _frankszoo.n_seats(g)
    if gid == GAME_KINGDOMINO:
        return _kingdomino.n_seats(g)
    if gid == GAME_TAROK:
        return _tarok.n_seats(g)
    return _nim.n_seats(g)


@njit(cache=True)
def current(s, g):
    gid = g[0]
    if gid == GAME_DURAK:
        return _durak.current(s, g)
    if gid == GAME_FRANKSZOO:
        return _frankszoo.current(s, g)
    if gid == GAME_KINGDOMINO:
        return _kingdomino.current(s, g)
    if gid == GAME_TAROK:
        return _tarok.current(s, g)
    return _nim.current(s, g)


@njit(cache=True)
def legal(s, g, mv):
    gid = g[0]
    if gid == GAME_DURAK:
        return _durak.legal(s, g, mv)
    if gid == GAME_FRANKSZOO:
        return _frankszoo.legal(s, g, mv)
    if gid == GAME_KINGDOMINO:
        return _kingdomino.legal(s, g, mv)
    if gid == GAME_TAROK:
        return _tarok.legal(s, g, mv)
    return _nim.legal(s, g, mv)


@njit(cache=True)
def move_key(s, g, m):
    gid = g[0]
    if gid == GAME_DURAK:
        return _durak.move_key(s, g, m)
    if gid == GAME_FRANKSZOO:
        return _frankszoo.move_key(s, g, m)
    if gid == GAME_KINGDOMINO:
        return _kingdomino.move_key(s, g, m)
    if gid == GAME_TAROK:
        return _tarok.move_key(s, g, m)
    return _nim.move_key(s, g, m)


@njit(cache=True)
def apply(s, g, m):
    gid = g[0]
    if gid == GAME_DURAK:
        _durak.apply(s, g, m)
    elif gid == GAME_FRANKSZOO:
        _frankszoo.apply(s, g, m)
    elif gid == GAME_KINGDOMINO:
        _kingdomino.apply(s, g, m)
    elif gid == GAME_TAROK:
        _tarok.apply(s, g, m)
    else:
        _nim.apply(s, g, m)


@njit(cache=True)
def determinize(s, g, seat, rng, out):
    gid = g[0]
    if gid == GAME_DURAK:
        _durak.determinize(s, g, seat, rng, out)
    elif gid == GAME_FRANKSZOO:
        _frankszoo.determinize(s, g, seat, rng, out)
    elif gid == GAME_KINGDOMINO:
        _kingdomino.determinize(s, g, seat, rng, out)
    elif gid == GAME_TAROK:
        _tarok.determinize(s, g, seat, rng, out)
    else:
        _nim.determinize(s, g, seat, rng, out)


@njit(cache=True)
def playout(s, g, rng):
    gid = g[0]
    if gid == GAME_DURAK:
        _durak.playout(s, g, rng)
    elif gid == GAME_FRANKSZOO:
        _frankszoo.playout(s, g, rng)
    elif gid == GAME_KINGDOMINO:
        _kingdomino.playout(s, g, rng)
    elif gid == GAME_TAROK:
        _tarok.playout(s, g, rng)
    else:
        _nim.playout(s, g, rng)


@njit(cache=True)
def reward(s, g, seat):
    gid = g[0]
    if gid == GAME_DURAK:
        return _durak.reward(s, g, seat)
    if gid == GAME_FRANKSZOO:
        return _frankszoo.reward(s, g, seat)
    if gid == GAME_KINGDOMINO:
        return _kingdomino.reward(s, g, seat)
    if gid == GAME_TAROK:
        return _tarok.reward(s, g, seat)
    return _nim.reward(s, g, seat)


@njit(cache=True)
def baseline(s, g, rng):
    gid = g[0]
    if gid == GAME_DURAK:
        return _durak.baseline(s, g, rng)
    if gid == GAME_FRANKSZOO:
        return _frankszoo.baseline(s, g, rng)
    if gid == GAME_KINGDOMINO:
        return _kingdomino.baseline(s, g, rng)
    if gid == GAME_TAROK:
        return _tarok.baseline(s, g, rng)
    return _nim.baseline(s, g, rng)
