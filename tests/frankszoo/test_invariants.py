"""Invariants over many random games: cards conserved, only legal moves, scores 4/3/2/0.

The 100,000-game sweep runs inside one compiled function so that it takes seconds.
"""

import hashlib

import numpy as np
from numba import njit

from gameai.frankszoo.agents import agent_row
from gameai.frankszoo.decks import DECK_NAMES, get_deck
from gameai.frankszoo.experiments import agents_array
from gameai.frankszoo.play import new_hand, play_game
from gameai.frankszoo.rules import (
    ACT_PASS,
    ACT_SKIP,
    MAX_MOVES,
    N_IDS,
    SP_NP,
    ST_CUR,
    ST_DONE,
    ST_PLACE,
    ST_SCORE,
    ST_SIZE,
    ST_TN,
    ST_TT,
    ST_TURNS,
    apply_action,
    random_action,
    rule_switches,
)


@njit(cache=True)
def _check_games(counts, beats, sp, n_games, rng):
    """Return the number of violations seen over ``n_games`` RandomAI games."""
    bad = 0
    mv = np.empty((MAX_MOVES, 4), dtype=np.int64)
    for _ in range(n_games):
        hands, st = new_hand(counts, sp, rng)
        played = np.zeros(counts.shape[0], dtype=np.int64)
        while st[ST_DONE] == 0:
            p = st[ST_CUR]
            if st[ST_SIZE + p] == 0:
                bad += 1  # a player out of cards is asked to act
            tt, tn = st[ST_TT], st[ST_TN]
            idx = random_action(hands, st, beats, sp, mv, rng)
            if idx >= 0:
                t, n, mq, ch = mv[idx, 0], mv[idx, 1], mv[idx, 2], mv[idx, 3]
                cnt = n + mq + ch
                if hands[p, t] < n:
                    bad += 1
                if tt >= 0 and not ((cnt == tn and beats[t, tt]) or (t == tt and cnt == tn + 1)):
                    bad += 1  # does not defeat the table
                played[t] += n
                if mq:
                    played[sp[2]] += 1
                if ch:
                    played[sp[3]] += 1
            elif idx == ACT_PASS and tt < 0:
                bad += 1  # pass on an opening
            elif idx == ACT_SKIP and tt >= 0:
                bad += 1
            apply_action(hands, st, mv, idx, sp)
            for t in range(counts.shape[0]):
                if hands[:, t].sum() + played[t] != counts[t]:
                    bad += 1  # cards not conserved
        scores = np.sort(st[ST_SCORE:ST_SCORE + 4])
        if scores[0] != 0 or scores[1] != 2 or scores[2] != 3 or scores[3] != 4:
            bad += 1
        places = np.sort(st[ST_PLACE:ST_PLACE + 4])
        for q in range(4):
            if places[q] != q:
                bad += 1
        # the last player is the only one left with cards
        left = 0
        for q in range(sp[SP_NP]):
            if st[ST_SIZE + q] > 0:
                left += 1
                if st[ST_PLACE + q] != 3:
                    bad += 1
        if left != 1:
            bad += 1
    return bad


def test_invariants_over_100k_random_games():
    rng = np.random.default_rng(2009)
    games_per_deck = 100_000 // len(DECK_NAMES) + 1
    for name in DECK_NAMES:
        deck = get_deck(name)
        for rule in ("uniform", "forced"):
            sp = rule_switches(deck, rule)
            n = games_per_deck if rule == "uniform" else 500
            assert _check_games(deck.counts, deck.beats, sp, n, rng) == 0, (name, rule)


def test_games_with_every_agent_end_with_a_full_score_sheet():
    rng = np.random.default_rng(3)
    W = np.zeros((N_IDS, N_IDS))
    for name in ("test4", "original"):
        deck = get_deck(name)
        sp = rule_switches(deck)
        hw = np.full(deck.n_types, 40.0)
        for agent in ("HeuristicAI", "MC-wins", "MC-weights", "MC-highest", "MC-score-perfect",
                      "MC-score-nopass"):
            ag = np.stack([agent_row(agent, 5)] + [agent_row("RandomAI")] * 3)
            for _ in range(5):
                hands, st = new_hand(deck.counts, sp, rng)
                play_game(hands, st, deck.beats, sp, ag, hw, W, rng, np.empty((0, 3), np.int64))
                assert sorted(st[ST_SCORE:ST_SCORE + 4]) == [0, 2, 3, 4]
                assert hands.sum() == st[ST_SIZE:ST_SIZE + 4].sum()


# The stored results in data/frankszoo/ are keyed by (seed, config, index) and the engine's
# version: a change that alters a game's outcome or the random numbers it draws must bump
# ENGINE_VERSION / AGENTS_VERSION. This digest over games with every agent, several decks and
# every pass rule was recorded with the engine that computed those results (ENGINE_VERSION 1,
# AGENTS_VERSION 1, before the speed-ups of issue 12); speed-ups must leave it unchanged.
OUTCOMES_DIGEST = "5a2042c95b6ac417"
DIGEST_CONFIGS = [
    ("original", "uniform", ["RandomAI"] * 4, 200),
    ("original", "forced", ["RandomAI"] * 4, 50),
    ("test5", "half", ["RandomAI"] * 4, 50),
    ("test13", "open", ["RandomAI"] * 4, 50),
    ("original", "uniform", ["HeuristicAI", "HeuristicAI-passlist", "HeuristicAI-noseq", "RandomAI"],
     50),
    ("test7", "uniform", ["HeuristicAI-noweights", "HeuristicAI-rulesonly", "HeuristicAI",
                          "RandomAI"], 50),
    ("original", "uniform", ["MC-score", "MC-wins", "MC-score-nopass", "RandomAI"], 3),
    ("test6", "open", ["MC-weights", "MC-highest", "MC-score-perfect", "RandomAI"], 3),
]


def test_game_outcomes_match_the_recorded_engine():
    h = hashlib.sha256()
    W = np.random.default_rng(2).random((N_IDS, N_IDS))
    W[W < 0.6] = 0.0
    for i, (name, rule, seats, n) in enumerate(DIGEST_CONFIGS):
        deck = get_deck(name)
        sp = rule_switches(deck, rule)
        ag = agents_array(seats, 3)
        hw = np.arange(deck.n_types, 0, -1) * 6.0
        rng = np.random.default_rng(1000 + i)
        log = np.zeros((512, 3), dtype=np.int64)
        for _ in range(n):
            hands, st = new_hand(deck.counts, sp, rng)
            k = play_game(hands, st, deck.beats, sp, ag, hw, W, rng, log)
            h.update(st.tobytes())
            h.update(hands.tobytes())
            h.update(log[:k].tobytes())
        h.update(np.int64(rng.integers(0, 2**62)).tobytes())  # the generator's state after
    assert h.hexdigest()[:16] == OUTCOMES_DIGEST


def test_bench_loop_plays_the_same_games_as_one_call_per_game():
    """The bench's compiled loop times exactly the work GameTask does game by game."""
    from gameai.frankszoo.bench import play_many

    deck = get_deck("original")
    sp = rule_switches(deck)
    ag = agents_array(["RandomAI"] * 4, 1)
    hw = np.zeros(deck.n_types)
    W = np.zeros((N_IDS, N_IDS))
    a, b = np.random.default_rng(8), np.random.default_rng(8)
    turns = 0
    for _ in range(50):
        hands, st = new_hand(deck.counts, sp, b)
        play_game(hands, st, deck.beats, sp, ag, hw, W, b, np.empty((0, 3), np.int64))
        turns += st[ST_TURNS]
    assert play_many(deck.counts, deck.beats, sp, ag, hw, W, 50, a) == turns
    assert a.bit_generator.state == b.bit_generator.state
