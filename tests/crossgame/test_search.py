"""The three searches on Nim, where the best move is known, and the information-set tree of
SO-ISMCTS, which must not depend on where the hidden cards lie."""

import numpy as np
import pytest

from gameai.crossgame import search as S
from gameai.crossgame.adapters import durak, nim
from gameai.durak import rules as R


@pytest.mark.parametrize("search", S.SEARCHES)
@pytest.mark.parametrize("stones, best", [(5, 1), (7, 3), (6, 2)])
def test_each_search_finds_the_winning_nim_move(search, stones, best):
    """From 5, 6 and 7 stones only taking 1, 2 and 3 leaves a multiple of 4."""
    rng = np.random.default_rng(7)
    s, g = nim.new_game(stones)
    moves = [S.search_move(S.SEARCH_IDS[search], s, g, 1_000, 0.7, rng)[0] for _ in range(10)]
    assert moves == [best] * 10


@pytest.mark.parametrize("search", S.SEARCHES)
def test_a_tiny_budget_still_returns_a_legal_move(search):
    rng = np.random.default_rng(3)
    s, g = nim.new_game(9)
    for budget in (1, 2, 5):
        move, nodes = S.search_move(S.SEARCH_IDS[search], s, g, budget, 0.7, rng)
        assert move in (1, 2, 3) and 1 <= nodes <= budget + 1


def test_nodes_grow_with_the_budget():
    rng = np.random.default_rng(3)
    s, g = nim.new_game(21)
    small = S.search_move(S.SEARCH_IDS["ismcts"], s, g, 30, 0.7, rng)[1]
    large = S.search_move(S.SEARCH_IDS["ismcts"], s, g, 300, 0.7, rng)[1]
    assert small < large <= 301


def _swap_hidden(s, g, me):
    """A state ``me`` cannot tell from ``s``: one unseen card of an opponent's hand swapped
    with one unseen card of the talon (and in the talon's record of the deal, so that the
    engine's state stays a real one)."""
    t = s.copy()
    hands, talon, st, sp = durak._views(t, g)
    seen = durak._seen(hands, talon, st, sp, me)
    q = 1 - me
    i = next(i for i in range(st[R.ST_SIZE + q]) if not (seen >> hands[q, i]) & 1)
    j = next(j for j in range(st[R.ST_DRAWN], sp[R.SP_NCARDS] - 1)
             if not (seen >> talon[j]) & 1)
    a, b = hands[q, i], talon[j]
    dealt = list(talon).index(a)
    hands[q, i], talon[j], talon[dealt] = b, a, b
    assert sorted(talon) == sorted(s[durak.O_TALON:durak.O_TALON + sp[R.SP_NCARDS]])
    return t


def test_ismcts_tree_does_not_depend_on_the_hidden_cards():
    s, g = durak.new_game(np.random.default_rng(11), 2)
    me = durak.current(s, g)
    t = _swap_hidden(s, g, me)
    assert not np.array_equal(s, t)
    tree_s = S.so_ismcts_tree(s, g, 500, 0.7, np.random.default_rng(5))
    tree_t = S.so_ismcts_tree(t, g, 500, 0.7, np.random.default_rng(5))
    assert tree_s[2] == tree_t[2] > 100
    np.testing.assert_array_equal(tree_s[0], tree_t[0])
    np.testing.assert_array_equal(tree_s[1], tree_t[1])


def test_the_determinizations_of_indistinguishable_states_are_equal():
    s, g = durak.new_game(np.random.default_rng(11), 2)
    me = durak.current(s, g)
    t = _swap_hidden(s, g, me)
    d_s, d_t = np.empty_like(s), np.empty_like(t)
    durak.determinize(s, g, me, np.random.default_rng(1), d_s)
    durak.determinize(t, g, me, np.random.default_rng(1), d_t)
    np.testing.assert_array_equal(d_s[durak.O_HANDS:], d_t[durak.O_HANDS:])
    assert not np.array_equal(s[durak.O_HANDS:], t[durak.O_HANDS:])
