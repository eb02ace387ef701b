"""The Kingdomino adapter of the cross-game chapter against the engine it wraps.

Random games end after 52 legal moves with whole kingdoms; the baseline (FG) plays, move for
move, the engine's own FG on the same deal; a determinization keeps everything public and
re-deals only the undrawn dominoes, so two deals that differ only there give the same
determinizations and the same SO-ISMCTS tree; move keys name dominoes, not draft slots; every
search returns a legal move.
"""

import numpy as np
import pytest

from gameai.crossgame import games as GM
from gameai.crossgame import search as S
from gameai.crossgame.adapters import kingdomino as kd
from gameai.kingdomino import agents as A
from gameai.kingdomino import policies as P
from gameai.kingdomino import rules as R

DECK = slice(kd.O_DECK, kd.S_LEN)


def _legal(s, g):
    mv = np.empty(GM.MAX_MOVES, dtype=np.int64)
    return mv[:kd.legal(s, g, mv)].copy()


def _drawn(s):
    return bin(int(s[kd.O_G + R.G_SEEN])).count("1")


def _kingdoms(s):
    return s[kd.O_K:kd.O_DECK].reshape(R.N_PLAYERS, R.KLEN)


def _state(seed, n_moves):
    """A new game (deal ``seed``) after ``n_moves`` moves of FG in every seat."""
    rng = np.random.default_rng(seed)
    s, g = kd.new_game(rng)
    for _ in range(n_moves):
        kd.apply(s, g, kd.baseline(s, g, rng))
    return s, g


def _check_finished(s, g, deck):
    """A finished game: every kingdom placed or discarded 12 dominoes, inside a 5x5, with the
    incremental score equal to a recount; all 48 dominoes drafted, the last draft from the
    deck placed in round 13; the deck itself untouched."""
    assert kd.current(s, g) == -1
    assert s[kd.O_G + R.G_NMOVES] == R.N_MOVES and s[kd.O_G + R.G_ROUND] == R.N_ROUNDS
    assert s[kd.O_G + R.G_SEEN] == (1 << 48) - 1
    np.testing.assert_array_equal(s[DECK], deck)
    np.testing.assert_array_equal(s[kd.O_G + R.G_PREV:kd.O_G + R.G_PREV + 4], deck[44:])
    for k in _kingdoms(s):
        assert k[R.K_PLACED] + k[R.K_DISCARDED] == 12
        assert k[R.K_NOCC] == 1 + 2 * k[R.K_PLACED]
        assert k[R.K_MAXR] - k[R.K_MINR] < 5 and k[R.K_MAXC] - k[R.K_MINC] < 5
        assert R.score(k) == R.recount(k)
    rewards = [kd.reward(s, g, p) for p in range(4)]
    assert sum(rewards) == pytest.approx(1.0) and max(rewards) > 0


def test_new_game_deals_a_permutation_in_sorted_drafts():
    s, g = kd.new_game(np.random.default_rng(0))
    deck = s[DECK]
    assert sorted(deck) == list(range(1, 49))
    assert all(list(deck[b:b + 4]) == sorted(deck[b:b + 4]) for b in range(0, 48, 4))
    np.testing.assert_array_equal(deck[:4], s[kd.O_G + R.G_CUR:kd.O_G + R.G_CUR + 4])
    assert _drawn(s) == 4 and kd.n_seats(g) == 4 and g[0] == GM.GAME_KINGDOMINO
    s2, _ = kd.new_game(np.random.default_rng(0))
    np.testing.assert_array_equal(s, s2)
    assert not np.array_equal(s, kd.new_game(np.random.default_rng(1))[0])


def test_random_legal_moves_end_the_game_as_the_rules_say():
    """Each move drawn from ``legal``; after every move the scores equal a recount and the
    drafted dominoes are the deck's first ones."""
    rng = np.random.default_rng(1)
    for seed in range(12):
        s, g = kd.new_game(np.random.default_rng(seed))
        deck = s[DECK].copy()
        moves = 0
        while (p := kd.current(s, g)) >= 0:
            assert p == R.current_player(s[:R.G_LEN])
            mv = _legal(s, g)
            assert len(mv) > 0
            kd.apply(s, g, mv[rng.integers(len(mv))])
            moves += 1
            assert all(R.score(k) == R.recount(k) for k in _kingdoms(s))
            assert s[kd.O_G + R.G_SEEN] == sum(1 << (int(d) - 1) for d in deck[:_drawn(s)])
        assert moves == R.N_MOVES
        _check_finished(s, g, deck)


@pytest.mark.parametrize("n_moves", [0, 1, 7, 30, 47, 50])
def test_playout_finishes_the_game_from_any_point(n_moves):
    rng = np.random.default_rng(n_moves)
    for seed in range(20):
        s, g = _state(seed, n_moves)
        deck = s[DECK].copy()
        kd.playout(s, g, rng)
        _check_finished(s, g, deck)


def test_playout_is_uniformly_random_play():
    """Playouts from the start, and random legal moves through ``apply``, give the same mean
    final score (4,000 playouts against 150 games: within 4 standard errors, about 1.3
    points)."""
    rng = np.random.default_rng(2)
    s0, g = kd.new_game(np.random.default_rng(3))
    a = []
    for _ in range(4000):
        s = s0.copy()
        kd.playout(s, g, rng)
        a += [R.score(k) for k in _kingdoms(s)]
    b = []
    for _ in range(150):
        s = s0.copy()
        while kd.current(s, g) >= 0:
            mv = _legal(s, g)
            kd.apply(s, g, mv[rng.integers(len(mv))])
        b += [R.score(k) for k in _kingdoms(s)]
    se = np.sqrt(np.var(a) / len(a) + np.var(b) / len(b))
    assert abs(np.mean(a) - np.mean(b)) < 4 * se


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_baseline_plays_the_engines_fg_on_the_same_deal(seed):
    """The engine's FG (``agents.choose_move``) on copies of the engine arrays, fed the same
    drafts through its kept-draft path (``apply_move(..., given=True)``), with a twin random
    stream: the same move at every turn, the same arrays after every move, the same end."""
    s, g = kd.new_game(np.random.default_rng(seed))
    Ge = s[:R.G_LEN].copy()
    Ke = _kingdoms(s).copy()
    deck = s[DECK].copy()
    row = A.agent_row("FG")
    pb, gb, scratch = P.new_buffers()
    memo = P.new_memo()  # the engine's FG with its memo, the adapter's without
    mv = np.empty(R.MAX_MOVES, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    rng_e, rng_a = np.random.default_rng(10 + seed), np.random.default_rng(10 + seed)
    while Ge[R.G_DONE] == 0:
        m_e, _ = A.choose_move(Ge, Ke, row, rng_e, mv, pb, gb, scratch, draft, memo)
        m_a = kd.baseline(s, g, rng_a)
        assert m_a == m_e and m_a in _legal(s, g)
        r = Ge[R.G_ROUND]
        nxt = deck[4 * r:4 * r + 4].copy() if r < 12 else np.zeros(4, dtype=np.int64)
        R.apply_move(Ge, Ke, m_e, rng_e, nxt, True)
        kd.apply(s, g, m_a)
        np.testing.assert_array_equal(s[:R.G_LEN], Ge)
        np.testing.assert_array_equal(_kingdoms(s), Ke)
    _check_finished(s, g, deck)
    scores = [R.score(k) for k in Ke]
    for p in range(4):
        m = kd.measure(s, g, p)
        best_other = max(scores[q] for q in range(4) if q != p)
        assert m["score"] == scores[p] and m["margin"] == scores[p] - best_other
        assert m["win"] == kd.reward(s, g, p) == P.reward(Ke, p, P.SC_WDL)
        assert m["draw"] == (scores[p] == best_other)
    assert set(kd.measure(s, g, 0)) >= {kd.HEADLINE, "score", "margin"}


def test_the_baseline_beats_random_play():
    """FG in one seat against three players of uniformly random legal moves (TR)."""
    rng = np.random.default_rng(4)
    wins = []
    for seed in range(20):
        s, g = kd.new_game(np.random.default_rng(100 + seed))
        seat = seed % 4
        while (p := kd.current(s, g)) >= 0:
            if p == seat:
                m = kd.baseline(s, g, rng)
            else:
                mv = _legal(s, g)
                m = mv[rng.integers(len(mv))]
            kd.apply(s, g, m)
        wins.append(kd.measure(s, g, seat)["win"])
    assert np.mean(wins) > 0.8


# --------------------------------------------------------------------------- determinization
def _swap_hidden(s):
    """A state nobody can tell from ``s``: two undrawn dominoes of different future drafts
    swapped (each draft sorted again, as the engine keeps them)."""
    t = s.copy()
    deck = t[DECK]
    n = _drawn(s)
    i, j = n, n + 4
    deck[i], deck[j] = deck[j], deck[i]
    for b in (n, n + 4):
        deck[b:b + 4] = np.sort(deck[b:b + 4])
    return t


STATES = [(0, 0), (1, 9), (2, 22), (3, 37)]  # (deal, FG moves played): rounds 1, 3, 6, 10


@pytest.mark.parametrize("seed, n_moves", STATES + [(4, 41), (4, 44), (5, 51)])
def test_determinize_keeps_what_is_public_and_redeals_the_rest(seed, n_moves):
    s, g = _state(seed, n_moves)
    n = _drawn(s)
    seat = kd.current(s, g)
    outs = []
    for r in range(5):
        d = np.empty_like(s)
        kd.determinize(s, g, seat, np.random.default_rng(r), d)
        np.testing.assert_array_equal(d[:kd.O_DECK], s[:kd.O_DECK])  # kingdoms, drafts, picks
        np.testing.assert_array_equal(d[DECK][:n], s[DECK][:n])
        assert sorted(d[DECK][n:]) == sorted(s[DECK][n:])
        assert all(list(d[DECK][b:b + 4]) == sorted(d[DECK][b:b + 4]) for b in range(n, 48, 4))
        outs.append(d[DECK].copy())
    if 48 - n >= 8:  # two future drafts or more: the determinizations differ
        assert len({tuple(o) for o in outs}) > 1
    else:  # nothing (round 12 on) or one draft left to deal: only one possible future
        assert all(np.array_equal(o, s[DECK]) for o in outs)


@pytest.mark.parametrize("seed, n_moves", STATES)
def test_the_determinizations_of_indistinguishable_states_are_equal(seed, n_moves):
    s, g = _state(seed, n_moves)
    t = _swap_hidden(s)
    assert not np.array_equal(s, t)
    for seat in range(4):
        d_s, d_t = np.empty_like(s), np.empty_like(t)
        kd.determinize(s, g, seat, np.random.default_rng(seat), d_s)
        kd.determinize(t, g, seat, np.random.default_rng(seat), d_t)
        np.testing.assert_array_equal(d_s, d_t)


@pytest.mark.parametrize("seed, n_moves", STATES)
def test_ismcts_tree_does_not_depend_on_the_undrawn_order(seed, n_moves):
    s, g = _state(seed, n_moves)
    t = _swap_hidden(s)
    tree_s = S.so_ismcts_tree(s, g, 300, 0.7, np.random.default_rng(5))
    tree_t = S.so_ismcts_tree(t, g, 300, 0.7, np.random.default_rng(5))
    assert tree_s[2] == tree_t[2] > 100
    np.testing.assert_array_equal(tree_s[0], tree_t[0])
    np.testing.assert_array_equal(tree_s[1], tree_t[1])


# --------------------------------------------------------------------------------- move keys
@pytest.mark.parametrize("seed, n_moves", STATES + [(5, 50)])
def test_move_keys_are_distinct_and_name_dominoes(seed, n_moves):
    s, g = _state(seed, n_moves)
    mv = _legal(s, g)
    keys = [kd.move_key(s, g, m) for m in mv]
    assert len(set(keys)) == len(mv)
    placed = R.domino_to_place(s[:R.G_LEN])
    for m, key in zip(mv, keys):
        pick = m % 5
        picked = s[kd.O_G + R.G_CUR + pick] if pick < R.PICK_NONE else 0
        assert key % kd.KEY_PICKS == picked
        assert key // kd.KEY_PICKS == (placed + 1) * kd.KEY_PLACES + m // 5


def test_a_key_is_the_same_move_in_every_determinization():
    """Across a round's end the next draft differs between determinizations: a pick's key
    follows the domino, so equal keys mean the same domino (not the same slot)."""
    s, g = _state(6, 11)  # the last move of round 3: the next draft is hidden
    mv = _legal(s, g)
    seen = {}
    for r in range(20):
        d = np.empty_like(s)
        kd.determinize(s, g, kd.current(s, g), np.random.default_rng(r), d)
        kd.apply(d, g, mv[0])
        assert d[kd.O_G + R.G_ROUND] == 4
        for m in _legal(d, g):
            key = kd.move_key(d, g, m)
            domino = d[kd.O_G + R.G_CUR + m % 5]
            assert seen.setdefault(key, domino) == domino
    assert len({k % kd.KEY_PICKS for k in seen}) > 4  # several different next drafts


# ---------------------------------------------------------------------------------- searches
@pytest.mark.parametrize("search", S.SEARCHES)
@pytest.mark.parametrize("seed, n_moves", STATES + [(5, 49)])
def test_each_search_returns_a_legal_move(search, seed, n_moves):
    s, g = _state(seed, n_moves)
    before = s.copy()
    mv = _legal(s, g)
    rng = np.random.default_rng(8)
    for budget in (1, 50):
        move, nodes = S.search_move(S.SEARCH_IDS[search], s, g, budget, 0.7, rng)
        assert move in mv and nodes >= 1
    np.testing.assert_array_equal(s, before)  # the true state is left alone
