"""The Frank's Zoo adapter of the cross-game study: legal random games, the same games as the
engine's own loop, determinizations that keep what the searcher knows and ignore what it does
not, one key per move, and the three searches on Frank's Zoo states."""

import json
from pathlib import Path

import numpy as np
import pytest

from gameai.crossgame import games as G
from gameai.crossgame import search as S
from gameai.crossgame.adapters import frankszoo as F
from gameai.frankszoo import rules as R
from gameai.frankszoo.agents import AG_LEN, agent_row
from gameai.frankszoo.decks import get_deck
from gameai.frankszoo.play import new_hand, play_game

ROOT = Path(__file__).resolve().parents[2]
NO_LOG = np.empty((0, 3), dtype=np.int64)
NO_TABLE = np.zeros((R.N_IDS, R.N_IDS))


def _mv():
    return np.empty(G.MAX_MOVES, dtype=np.int64)


def _legal(s, g):
    mv = _mv()
    return mv[:G.legal(s, g, mv)].copy()


def _hands(s, g):
    return F._views(s, g)[0].copy()


def _advance(s, g, rng, moves):
    """``moves`` baseline moves from ``s`` (a copy), stopping before the end."""
    s = s.copy()
    for _ in range(moves):
        if G.current(s, g) < 0:
            break
        t = s.copy()
        G.apply(t, g, G.baseline(s, g, rng))
        if G.current(t, g) < 0:
            break
        s = t
    return s


def _states():
    """Positions of several deals: openings, follows, early and late in the hand."""
    out = []
    for seed in range(4):
        s, g = F.new_game(np.random.default_rng(seed))
        for moves in (0, 3, 20, 60):
            out.append((_advance(s, g, np.random.default_rng(seed + 50), moves), g))
    return out


def test_settings_are_the_chapters_paper_configuration():
    from gameai.frankszoo import chapter

    assert chapter.CONFIGURATIONS["paper"]["agent"] == F.BASELINE_AGENT
    stored = json.loads((ROOT / "data/frankszoo/heuristic_paper.json").read_text())
    cfg = next(c["config"] for c in stored["configs"] if c["config"]["deck"] == "original")
    assert cfg["seats"][0] == F.BASELINE_AGENT
    assert tuple(cfg["weights"]) == F.PAPER_WEIGHTS
    assert cfg["pass_rule"] == F.PASS_RULE
    s, g = F.new_game(np.random.default_rng(0))
    assert G.n_seats(g) == 4 and g[0] == G.GAME_FRANKSZOO
    deck = get_deck("original")
    np.testing.assert_array_equal(F._beats(g), deck.beats)
    assert g[F.G_PASSLIST] == 1 and g[F.G_ABLATE] == 0
    assert _hands(s, g).sum(axis=0).tolist() == deck.counts.tolist()
    assert _hands(s, g).sum(axis=1).tolist() == [15] * 4


def test_random_games_end_and_every_move_is_legal():
    mv = _mv()
    for seed in range(60):
        s, g = F.new_game(np.random.default_rng(seed))
        rng = np.random.default_rng(1000 + seed)
        turns = 0
        while G.current(s, g) >= 0:
            k = G.legal(s, g, mv)
            assert 1 <= k
            m = mv[rng.integers(k)] if seed % 2 else G.baseline(s, g, rng)
            assert m in mv[:k]
            G.apply(s, g, m)
            turns += 1
            assert turns < 1000
        assert sorted(s[R.ST_SCORE:R.ST_SCORE + 4]) == [0, 2, 3, 4]
        assert G.reward(s, g, int(s[R.ST_FIRST])) == 1.0
        assert sum(G.reward(s, g, q) for q in range(4)) == 1.0
        m = F.measure(s, g, int(s[R.ST_FIRST]))
        assert m["win"] == 1.0 and m["place"] == 0.0 and m["score"] == 4.0


def test_playouts_end_from_any_position():
    for s, g in _states():
        t = s.copy()
        G.playout(t, g, np.random.default_rng(3))
        assert G.current(t, g) == -1
        assert sorted(t[R.ST_SCORE:R.ST_SCORE + 4]) == [0, 2, 3, 4]
        assert _hands(t, g).sum() == t[R.ST_SIZE:R.ST_SIZE + 4].sum()


def test_legal_moves_are_the_engines():
    for s, g in _states():
        hands, st = F._views(s, g)
        rows = np.empty((R.MAX_MOVES, 4), dtype=np.int64)
        k = R.gen_moves(hands[st[R.ST_CUR]], st[R.ST_TT], st[R.ST_TN], get_deck("original").beats,
                        F._sp(g), rows)
        want = [R.move_id(*rows[i]) for i in range(k)]
        if st[R.ST_TT] >= 0:
            want.append(R.PASS_ID)
        elif k == 0:
            want.append(F.SKIP)
        assert _legal(s, g).tolist() == want


def _engine_game(seed, seats):
    deck = get_deck("original")
    sp = R.rule_switches(deck, F.PASS_RULE)
    ag = np.zeros((4, AG_LEN), dtype=np.int64)
    for p, name in enumerate(seats):
        ag[p] = agent_row(name)
    rng = np.random.default_rng(seed)
    hands, st = new_hand(deck.counts, sp, rng)
    play_game(hands, st, deck.beats, sp, ag, np.asarray(F.PAPER_WEIGHTS, dtype=float), NO_TABLE,
              rng, NO_LOG)
    return hands, st


@pytest.mark.parametrize("seed", range(8))
def test_baseline_games_are_the_engines_heuristic_games(seed):
    hands, st = _engine_game(seed, [F.BASELINE_AGENT] * 4)
    rng = np.random.default_rng(seed)
    s, g = F.new_game(rng)
    while G.current(s, g) >= 0:
        G.apply(s, g, G.baseline(s, g, rng))
    np.testing.assert_array_equal(s[F.O_ST:F.O_HANDS], st)
    np.testing.assert_array_equal(_hands(s, g), hands)


@pytest.mark.parametrize("seed", range(8))
def test_playouts_are_the_engines_random_games(seed):
    hands, st = _engine_game(seed, ["RandomAI"] * 4)
    rng = np.random.default_rng(seed)
    s, g = F.new_game(rng)
    G.playout(s, g, rng)
    np.testing.assert_array_equal(s[F.O_ST:F.O_HANDS], st)
    np.testing.assert_array_equal(_hands(s, g), hands)


def test_the_baseline_beats_random_play():
    """The paper configuration wins 83 % against three RandomAIs in the chapter (10,000 games);
    uniformly random legal moves (the playout's RandomAI) are far weaker than that."""
    mv = _mv()
    wins = 0
    n = 300
    for i in range(n):
        s, g = F.new_game(np.random.default_rng(i))
        rng = np.random.default_rng(10_000 + i)
        seat = i % 4
        while (p := G.current(s, g)) >= 0:
            if p == seat:
                m = G.baseline(s, g, rng)
            else:
                m = mv[rng.integers(G.legal(s, g, mv))]
            G.apply(s, g, m)
        wins += F.measure(s, g, seat)["win"]
    assert wins / n > 0.65


def test_move_keys_are_distinct_and_name_the_engine_move():
    for s, g in _states():
        moves = _legal(s, g)
        keys = [G.move_key(s, g, m) for m in moves]
        assert len(set(keys)) == len(keys)
        for m in moves:
            if m < R.PASS_ID:
                t, cnt, mq, ch = R.decode_move_id(m)
                assert R.move_id(t, cnt - mq - ch, mq, ch) == m


def _swap_hidden(s, g, me):
    """A state ``me`` cannot tell from ``s``: one card of an opponent swapped with a card of
    another type in another opponent's hand (hand sizes and everything public unchanged)."""
    t = s.copy()
    hands, _ = F._views(t, g)
    opp = [q for q in range(4) if q != me]
    for a in opp:
        for b in opp:
            if a == b:
                continue
            for x in range(hands.shape[1]):
                for y in range(hands.shape[1]):
                    if x != y and hands[a, x] > 0 and hands[b, y] > 0:
                        hands[a, x] -= 1
                        hands[b, x] += 1
                        hands[b, y] -= 1
                        hands[a, y] += 1
                        return t
    raise AssertionError("no hidden cards to swap")


def test_determinize_keeps_what_the_seat_knows():
    rng = np.random.default_rng(2)
    changed = 0
    for s, g in _states():
        me = G.current(s, g)
        for seat in range(4):
            d = np.empty_like(s)
            G.determinize(s, g, seat, rng, d)
            np.testing.assert_array_equal(d[F.O_ST:F.O_HANDS], s[F.O_ST:F.O_HANDS])
            assert d[F.O_CHA] == s[F.O_CHA]
            hs, hd = _hands(s, g), _hands(d, g)
            np.testing.assert_array_equal(hd[seat], hs[seat])
            np.testing.assert_array_equal(hd.sum(axis=0), hs.sum(axis=0))
            np.testing.assert_array_equal(hd.sum(axis=1), hs.sum(axis=1))
            changed += not np.array_equal(hd, hs)
            if seat == me:  # the seat's moves are the same in every determinization
                np.testing.assert_array_equal(_legal(d, g), _legal(s, g))
    assert changed > 30


def test_a_skipped_player_keeps_the_chameleon():
    """A player skipped on an opening is seen to hold only the chameleon (for good)."""
    deck = get_deck("original")
    ix = {name: i for i, name in enumerate(deck.type_names)}
    s, g = F.new_game(np.random.default_rng(0))
    hands, st = F._views(s, g)
    hands[:] = 0
    hands[0, ix["whale"]] = 2
    hands[1, ix["chameleon"]] = 1
    hands[2, ix["mouse"]] = 1
    hands[2, ix["fish"]] = 2
    hands[3, ix["lion"]] = 3
    R.init_state(st, hands, 1, F._sp(g))
    assert _legal(s, g).tolist() == [F.SKIP]
    G.apply(s, g, F.SKIP)
    assert s[F.O_CHA] == 1 and G.current(s, g) == 2
    d = np.empty_like(s)
    for i in range(20):
        G.determinize(s, g, 0, np.random.default_rng(i), d)
        assert _hands(d, g)[1].tolist() == hands[1].tolist()
    seen = set()
    for i in range(40):  # the other hidden cards still move
        G.determinize(s, g, 0, np.random.default_rng(i), d)
        seen.add(tuple(_hands(d, g)[2]))
    assert len(seen) > 1
    G.playout(s, g, np.random.default_rng(1))
    assert s[R.ST_PLACE + 1] == 3 and G.reward(s, g, 1) == 0.0


@pytest.mark.parametrize("moves", [0, 9])
def test_determinizations_of_indistinguishable_states_are_equal(moves):
    s, g = F.new_game(np.random.default_rng(11))
    s = _advance(s, g, np.random.default_rng(4), moves)
    me = G.current(s, g)
    t = _swap_hidden(s, g, me)
    assert not np.array_equal(s, t)
    for seed in range(5):
        d_s, d_t = np.empty_like(s), np.empty_like(t)
        G.determinize(s, g, me, np.random.default_rng(seed), d_s)
        G.determinize(t, g, me, np.random.default_rng(seed), d_t)
        np.testing.assert_array_equal(d_s, d_t)


@pytest.mark.parametrize("moves", [0, 9])
def test_ismcts_tree_does_not_depend_on_the_hidden_cards(moves):
    s, g = F.new_game(np.random.default_rng(11))
    s = _advance(s, g, np.random.default_rng(4), moves)
    me = G.current(s, g)
    t = _swap_hidden(s, g, me)
    tree_s = S.so_ismcts_tree(s, g, 300, 0.7, np.random.default_rng(5))
    tree_t = S.so_ismcts_tree(t, g, 300, 0.7, np.random.default_rng(5))
    assert tree_s[2] == tree_t[2] > 100
    np.testing.assert_array_equal(tree_s[0], tree_t[0])
    np.testing.assert_array_equal(tree_s[1], tree_t[1])


@pytest.mark.parametrize("search", S.SEARCHES)
def test_each_search_returns_a_legal_move(search):
    rng = np.random.default_rng(8)
    for s, g in _states()[::3]:
        moves = _legal(s, g)
        for budget in (1, 50):
            move, nodes = S.search_move(S.SEARCH_IDS[search], s, g, budget, 0.7, rng)
            assert move in moves and nodes >= 1
