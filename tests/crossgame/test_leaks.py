"""Twin-state leak test for every adapter of the cross-game chapter.

For each game (the chapter's five settings) a few positions ``s`` are paired with a twin ``t``
that the player to move cannot tell from ``s``: everything it cannot see re-dealt consistently
(Frank's Zoo: the opponents' hands re-dealt, sizes and the skipped chameleon holder kept;
Kingdomino: the undrawn dominoes re-dealt into the future drafts; tarok: cards swapped between
the defenders, voids respected; Durak: the unseen cards relabelled among the opponents'
unknown cards and the talon, the record of the deal with them, keeping the first attacker).
With the same seed every search must then return the same move - flat Monte Carlo,
determinized UCT with the fixed split (``n_det`` 0) and with 5 determinizations, SO-ISMCTS -
and SO-ISMCTS must grow the same tree, node for node.

The test can fail: the twins differ in their hidden parts (checked), and a copy of SO-ISMCTS
written here over the same parts of :mod:`.search` grows exactly the library's tree with the
adapter's determinization, but different trees on the twins once its determinization reads one
hidden value or is the true state (planted leaks); on at least one pair of each game it also
plays a different move.
"""

from functools import lru_cache

import numpy as np
import pytest

from gameai.crossgame import games as G
from gameai.crossgame import search as S
from gameai.crossgame.adapters import durak as D
from gameai.crossgame.adapters import frankszoo as F
from gameai.crossgame.adapters import kingdomino as K
from gameai.crossgame.play import SETTINGS
from gameai.durak import rules as DR
from gameai.frankszoo import rules as FR
from gameai.kingdomino import rules as KR
from gameai.tarok import rules as TR

GAMES = ("frankszoo", "kingdomino", "tarok", "durak2", "durak4")
assert set(GAMES) == set(SETTINGS)
BUDGET = 200
C = 0.7
#: (label, search id, n_det) - determinized UCT with the fixed split and with 5 trees
VARIANTS = (("flat_mc", 0, 0), ("det_uct_fixed", 1, 0), ("det_uct_k5", 1, 5), ("ismcts", 2, 0))


def _legal(s, g):
    mv = np.empty(G.MAX_MOVES, dtype=np.int64)
    return mv[:G.legal(s, g, mv)].copy()


def _advance(s, g, rng, moves):
    """``moves`` baseline moves, then on until the player to move has two legal moves."""
    s = s.copy()
    for _ in range(moves):
        G.apply(s, g, G.baseline(s, g, rng))
    while len(_legal(s, g)) < 2:
        G.apply(s, g, G.baseline(s, g, rng))
    assert G.current(s, g) >= 0
    return s


def _bits(mask, n):
    return [c for c in range(n) if (int(mask) >> c) & 1]


# ------------------------------------------------------------------------------ the twins
def _twin_frankszoo(s, g, rng):
    """The opponents' cards pooled and dealt again at random, each keeping his hand size (a
    player seen to be skipped keeps his chameleon)."""
    me = G.current(s, g)
    t = s.copy()
    hands, st = F._views(t, g)
    cha = F._sp(g)[FR.SP_CHA]
    known = int(s[F.O_CHA]) if s[F.O_CHA] != me else -1
    opp = [q for q in range(FR.N_PLAYERS) if q != me]
    pool = []
    for q in opp:
        for typ in range(hands.shape[1]):
            pool += [typ] * int(hands[q, typ])
    if known >= 0:
        pool.remove(cha)
    rng.shuffle(pool)
    for q in opp:
        size = int(st[FR.ST_SIZE + q])
        hands[q, :] = 0
        if q == known:
            hands[q, cha] = 1
            size -= 1
        for _ in range(size):
            hands[q, pool.pop()] += 1
    assert not pool
    return t


def _visible_frankszoo(s, g, me):
    hands, st = F._views(s, g)
    return [st, hands[me], hands.sum(axis=0) - hands[me], s[F.O_CHA:]]


def _twin_kingdomino(s, g, rng):
    """The undrawn dominoes shuffled into the future drafts (each draft sorted)."""
    t = s.copy()
    deck = t[K.O_DECK:K.S_LEN]
    n = bin(int(s[K.O_G + KR.G_SEEN])).count("1")
    assert 48 - n >= 8, "one future draft or none: nothing to re-deal"
    deck[n:] = rng.permutation(deck[n:])
    for b in range(n, 48, 4):
        deck[b:b + 4] = np.sort(deck[b:b + 4])
    return t


def _visible_kingdomino(s, g, me):
    n = bin(int(s[K.O_G + KR.G_SEEN])).count("1")
    return [s[:K.O_DECK + n], np.sort(s[K.O_DECK + n:])]


def _twin_tarok(s, g, rng):
    """Random swaps between the two hands the player to move cannot see, each card going only
    to a player who has not shown void in its suit (the declarer's talon cards stay put when
    a defender is to move)."""
    me = G.current(s, g)
    a, b = [q for q in range(3) if q != me]
    fixed = int(s[TR.S_TALON_SEEN] | s[TR.S_SHOWN]) if me != s[TR.S_DECL] else 0
    t = s.copy()
    ok = lambda p, c: not (int(s[TR.S_VOID + p]) >> int(TR.SUIT[c])) & 1
    for _ in range(6):
        ca = [c for c in _bits(t[TR.S_HAND + a] & ~fixed, TR.N_CARDS) if ok(b, c)]
        cb = [c for c in _bits(t[TR.S_HAND + b] & ~fixed, TR.N_CARDS) if ok(a, c)]
        x, y = int(rng.choice(ca)), int(rng.choice(cb))
        t[TR.S_HAND + a] ^= (1 << x) | (1 << y)
        t[TR.S_HAND + b] ^= (1 << x) | (1 << y)
    return t


def _visible_tarok(s, g, me):
    a, b = [q for q in range(3) if q != me]
    rest = [i for i in range(TR.S_LEN) if i not in (TR.S_HAND + a, TR.S_HAND + b)]
    sizes = [bin(int(s[TR.S_HAND + q])).count("1") for q in (a, b)]
    return [s[rest], np.array(sizes), np.array([s[TR.S_HAND + a] | s[TR.S_HAND + b]])]


def _durak_first(talon, st, sp):
    """The first attacker of the deal recorded in ``talon`` (six each, one at a time)."""
    n = int(sp[DR.SP_NP])
    trump = int(st[DR.ST_TRUMP])
    best = min(((int(c) % 13, k % n) for k, c in enumerate(talon[:6 * n]) if c // 13 == trump),
               default=(99, 0))
    return best[1]


def _twin_durak(s, g, rng):
    """The cards the player to move has not seen relabelled by a random permutation wherever
    they lie (the opponents' unknown cards, the talon above the face-up trump card, and the
    talon's record of the deal, so the twin is a deal of its own), redrawn until that deal
    gives the same first attacker."""
    hands, talon, st, sp = D._views(s, g)
    me = int(st[DR.ST_CUR])
    seen = int(D._seen(hands, talon, st, sp, me))
    unseen = [int(c) for c in talon if not (seen >> int(c)) & 1]
    for _ in range(1000):
        pi = dict(zip(unseen, rng.permutation(unseen).tolist()))
        t = s.copy()
        th, tt, tst, _ = D._views(t, g)
        th[:] = [[pi.get(int(c), int(c)) for c in row] for row in hands]
        tt[:] = [pi.get(int(c), int(c)) for c in talon]
        if _durak_first(tt, tst, sp) == st[DR.ST_FIRST] and not np.array_equal(t, s):
            return t
    raise AssertionError("no consistent twin")


def _visible_durak(s, g, me):
    hands, talon, st, sp = D._views(s, g)
    opp_known = [sorted(c for c in hands[q, :st[DR.ST_SIZE + q]] if (st[DR.ST_KNOWN + q] >> c) & 1)
                 for q in range(sp[DR.SP_NP]) if q != me]
    return [st, hands[me, :st[DR.ST_SIZE + me]], talon[-1:], np.array(sum(opp_known, []))]


TWINS = {"frankszoo": (_twin_frankszoo, _visible_frankszoo),
         "kingdomino": (_twin_kingdomino, _visible_kingdomino),
         "tarok": (_twin_tarok, _visible_tarok),
         "durak2": (_twin_durak, _visible_durak),
         "durak4": (_twin_durak, _visible_durak)}


def _positions(game):
    """A few positions of the game, with more than one legal move for the player to move."""
    setting = SETTINGS[game]
    rng = np.random.default_rng(3)
    out = []
    if game == "tarok":  # the declarer (the seat searched in the chapter), then a defender
        for seed, moves in ((0, 0), (1, 10), (2, 25)):
            s, g = setting.new_game(np.random.default_rng(seed), seed % 3)
            s = _advance(s, g, rng, moves)
            while G.current(s, g) != s[TR.S_DECL] or len(_legal(s, g)) < 2:
                s = _advance(s, g, rng, 1)
            out.append((s, g))
        s, g = setting.new_game(np.random.default_rng(4), 0)
        s = _advance(s, g, rng, 4)
        while G.current(s, g) == s[TR.S_DECL] or len(_legal(s, g)) < 2:
            s = _advance(s, g, rng, 1)
        out.append((s, g))
        return out
    moves = {"frankszoo": (0, 9, 30), "kingdomino": (0, 9, 22)}.get(game, (0, 7, 30))
    for seed, m in enumerate(moves):
        s, g = setting.new_game(np.random.default_rng(seed), seed)
        out.append((_advance(s, g, rng, m), g))
    return out


@lru_cache(maxsize=None)
def _twins(game):
    twin, _ = TWINS[game]
    rng = np.random.default_rng(17)
    return [(s, twin(s, g, rng), g) for s, g in _positions(game)]


# ---------------------------------------------------------------------------------- tests
@pytest.mark.parametrize("game", GAMES)
def test_the_twins_differ_only_where_the_player_to_move_cannot_see(game):
    """The twin differs from the position in its hidden part, agrees on everything the player
    to move sees, and gives him the same legal moves under the same keys."""
    _, visible = TWINS[game]
    for s, t, g in _twins(game):
        me = G.current(s, g)
        assert G.current(t, g) == me >= 0
        assert not np.array_equal(s, t)
        for a, b in zip(visible(s, g, me), visible(t, g, me)):
            np.testing.assert_array_equal(a, b)
        ms, mt = _legal(s, g), _legal(t, g)
        np.testing.assert_array_equal(ms, mt)
        assert [G.move_key(s, g, m) for m in ms] == [G.move_key(t, g, m) for m in mt]


@pytest.mark.parametrize("variant", VARIANTS, ids=[v[0] for v in VARIANTS])
@pytest.mark.parametrize("game", GAMES)
def test_every_search_plays_the_same_move_on_twins(game, variant):
    _, search, n_det = variant
    for i, (s, t, g) in enumerate(_twins(game)):
        s0, t0 = s.copy(), t.copy()
        for seed in (i, 100 + i):
            ms = S.search_move(search, s, g, BUDGET, C, np.random.default_rng(seed), n_det)
            mt = S.search_move(search, t, g, BUDGET, C, np.random.default_rng(seed), n_det)
            assert ms == mt  # the move and the number of nodes
            assert ms[0] in _legal(s, g)
        np.testing.assert_array_equal(s, s0)
        np.testing.assert_array_equal(t, t0)


@pytest.mark.parametrize("game", GAMES)
def test_ismcts_grows_the_same_tree_on_twins(game):
    for i, (s, t, g) in enumerate(_twins(game)):
        ts = S.so_ismcts_tree(s, g, BUDGET, C, np.random.default_rng(i))
        tt = S.so_ismcts_tree(t, g, BUDGET, C, np.random.default_rng(i))
        assert ts[2] == tt[2] > 20
        np.testing.assert_array_equal(ts[0], tt[0])
        np.testing.assert_array_equal(ts[1], tt[1])


# ------------------------------------------------------------------- the test can fail
def _tree(s, g, budget, rng, determinize):
    """SO-ISMCTS's tree as :func:`.search.so_ismcts_tree` grows it, with ``determinize``
    in place of the adapter's."""
    me = G.current(s, g)
    tn, wins = S._new_tree(budget + 1, G.n_seats(g))
    tn[0, S.N_PARENT] = -1
    tn[0, S.N_PLAYER] = -1
    n_nodes = 1
    d = np.empty_like(s)
    mv, keys, child_of, rew = S._buffers(g)
    for _ in range(budget):
        determinize(s, g, me, rng, d)
        n_nodes = S._iterate(tn, wins, n_nodes, d, g, C, True, rng, mv, keys, child_of, rew)
    return tn, wins, n_nodes


def _leaky(k, value):
    """The adapter's determinization, plus one look at hidden value ``k`` of the state: an
    extra random draw when it equals ``value`` (the twin has another value there)."""
    def determinize(x, g, me, rng, out):
        G.determinize(x, g, me, rng, out)
        if x[k] == value:
            rng.random()
    return determinize


def _cheat(x, g, me, rng, out):
    """No determinization at all: the searcher sees the true state."""
    out[:] = x


def _best_key(tree):
    """The key of the most visited root child (the move SO-ISMCTS would play, ties aside)."""
    tn = tree[0]
    best = ch = tn[0, S.N_FIRST]
    while ch >= 0:
        if tn[ch, S.N_VISITS] > tn[best, S.N_VISITS]:
            best = ch
        ch = tn[ch, S.N_SIBLING]
    return tn[best, S.N_KEY]


@pytest.mark.parametrize("game", GAMES)
def test_a_planted_leak_is_caught(game):
    """The copy of SO-ISMCTS grows the library's tree with the adapter's determinization; with
    a leaking one (one hidden value read, or the true state itself) it grows different trees on
    every pair of twins and plays a different move on at least one."""
    moved = {"leak": 0, "cheat": 0}
    for i, (s, t, g) in enumerate(_twins(game)):
        honest = _tree(s, g, BUDGET, np.random.default_rng(i), G.determinize)
        lib = S.so_ismcts_tree(s, g, BUDGET, C, np.random.default_rng(i))
        assert honest[2] == lib[2]
        np.testing.assert_array_equal(honest[0], lib[0])
        np.testing.assert_array_equal(honest[1], lib[1])
        k = int(np.flatnonzero(s != t)[0])  # a hidden value: the twins differ there
        for name, det in (("leak", _leaky(k, s[k])), ("cheat", _cheat)):
            ls = _tree(s, g, BUDGET, np.random.default_rng(i), det)
            lt = _tree(t, g, BUDGET, np.random.default_rng(i), det)
            assert ls[2] != lt[2] or not np.array_equal(ls[0], lt[0]) or not np.array_equal(
                ls[1], lt[1])
            moved[name] += _best_key(ls) != _best_key(lt)
    assert moved["leak"] >= 1 and moved["cheat"] >= 1, moved
