"""FG's memo (issue 45) changes the cost of a game, not the game: a memo'd FG makes the same
move with the same random draws as FG without one, whether it computes or replays, and whole
games of every greedy-playout agent end the same with a memo of any size."""

from __future__ import annotations

import numpy as np
import pytest
from kd_positions import mixed_positions

from gameai.kingdomino import policies as P
from gameai.kingdomino.agents import agent_row, play_game
from gameai.kingdomino.rules import (
    G_CUR,
    G_CUROWN,
    G_ROUND,
    K_CRW,
    K_TER,
    N_PLAYERS,
    N_ROUNDS,
    current_player,
    domino_to_place,
)


def _memo_free_fg(G, K, rng, pb, gb, scratch):
    return P.fg_move(G, K, rng, pb, gb, scratch, P.new_memo(0))


@pytest.fixture(scope="module")
def positions():
    """Positions of games from all-random to all-greedy play."""
    return mixed_positions(24, 500, lambda g: (g % 4) / 3, _memo_free_fg)


def _free_slots(G):
    return [(i, int(G[G_CUR + i])) for i in range(4)
            if G[G_ROUND] != N_ROUNDS and G[G_CUROWN + i] < 0]


def _fg(G, K, seed, memo):
    """FG's move and the generator's next draw (the same draws were made before it)."""
    pb, gb, scratch = P.new_buffers()
    rng = np.random.default_rng(seed)
    m = P.fg_move(G.copy(), K.copy(), rng, pb, gb, scratch, memo)
    return int(m), rng.random()


def test_memo_fg_moves_and_draws_as_fg_without_one(positions):
    """One memo over every position, three seeds each (tie-breaks differ): the first call
    computes and stores, the next ones replay - each equal to FG without a memo."""
    memo = P.new_memo()
    for i, (G, K) in enumerate(positions):
        for seed in (i, i + 1, i + 2):
            assert _fg(G, K, seed, memo) == _fg(G, K, seed, P.new_memo(0)), i
    assert (memo[:, P.M_N] >= 0).sum() > 500  # many results kept ...
    assert (memo[:, P.M_N] > 1).sum() > 50  # ... with runs of ties among them


def test_a_kept_result_is_what_fg_returns(positions):
    """The replay reads the memo: a kept run of ties made of one doctored move is returned."""
    memo = P.new_memo()
    for G, K in positions[60:]:  # the first that FG keeps
        _fg(G, K, 0, memo)
        if (memo[:, P.M_N] >= 0).any():
            break
    slot = int(np.flatnonzero(memo[:, P.M_N] >= 0)[0])
    memo[slot, P.M_N] = 1
    memo[slot, P.M_SKIP] = 0
    memo[slot, P.M_MOVES] = 12345
    assert _fg(G, K, 0, memo)[0] == 12345


def test_long_runs_of_ties_are_not_kept(positions):
    """A run of more equal best values than a slot holds leaves the slot empty, and the next
    call computes again (same move, same draws)."""
    memo = P.new_memo()
    pb, gb, _ = P.new_buffers()
    long_runs = 0
    for i, (G, K) in enumerate(positions):
        memo[:, P.M_N] = -1
        first = _fg(G, K, i, memo)
        kept = (memo[:, P.M_N] >= 0).sum() > 0
        asked = (G[G_ROUND] > 1 and _free_slots(G) and P.greedy_candidates(
            K[current_player(G)], domino_to_place(G), pb[0], gb[0]) >= P.MEMO_MIN_CANDIDATES)
        if asked and not kept:  # the memo was asked and left the slot empty: a long run
            long_runs += 1
            assert _fg(G, K, i, memo) == first == _fg(G, K, i, P.new_memo(0))
    assert long_runs >= 3


def test_keys_tell_apart_what_fg_reads(positions):
    """Equal keys only for equal inputs of FG: the mover's terrain and crowns (the rest of the
    kingdom row follows from them), the domino to place and the free slots of the draft."""
    seen: dict[tuple, tuple] = {}
    for G, K in positions:
        if G[G_ROUND] in (1, N_ROUNDS):
            continue
        free = _free_slots(G)
        picks = sum(slot << (3 * j) for j, (slot, _) in enumerate(free))
        k = K[current_player(G)]
        key = tuple(int(w) for w in P._memo_key(k, domino_to_place(G), G, picks, len(free)))
        what = (k[K_TER:K_TER + 121].tobytes(), k[K_CRW:K_CRW + 121].tobytes(),
                int(domino_to_place(G)), tuple(free))
        assert seen.setdefault(key, what) == what
    assert len(seen) > 500


@pytest.mark.parametrize("name, greedy", [("MCE-FG/R", "ours"), ("UCT_W-FG", "ours"),
                                          ("UCT_B-PG", "authors"), ("MCE-εG/WDL", "ours"),
                                          ("UCT-εG", "authors")])
def test_games_are_the_same_with_any_memo(name, greedy):
    """Whole games (four FG* opponents) with the memo of the games (2**15 slots), one of two
    slots (a key nearly always evicts another) and none: the same kingdoms, playouts and draws."""
    ag = np.stack([agent_row(name, playouts=60, playout_greedy=greedy)]
                  + [agent_row("FG*")] * (N_PLAYERS - 1))
    ends = []
    for bits in (P.MEMO_BITS, 1, 0):
        rng = np.random.default_rng(9)
        scores = np.zeros((N_PLAYERS, N_ROUNDS), dtype=np.int64)
        playouts = np.zeros(N_PLAYERS, dtype=np.int64)
        K = play_game(ag, rng, scores, playouts, bits)
        ends.append((K.tolist(), scores.tolist(), playouts.tolist(), rng.random()))
    assert ends[0] == ends[1] == ends[2]

