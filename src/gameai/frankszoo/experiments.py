"""Frank's Zoo experiments as pure task functions ``(config, index, rng) -> rows``.

No I/O and no plotting here: ``chapter.py`` turns these into cached ``Experiment`` objects and
``analysis.py`` turns the rows into the paper's tables and figures.

A *game* config names a deck, the agent in each seat and the rule switches::

    {"deck": "test5", "seats": ["HeuristicAI", "RandomAI", "RandomAI", "RandomAI"],
     "pass_rule": "uniform", "episodes": 100, "weights": [64, 42, 29, 18, 12], "table": "…"}

``weights`` (HeuristicAI's per-type weights) and ``table`` (the signature of the 2-sequence
weight table a Monte Carlo playout policy needs) are part of the config, so the cache key changes
when the trained inputs change. The tables themselves travel with the callable
(:class:`GameTask`), never inside the config.
"""

from __future__ import annotations

import hashlib
from typing import Any, Mapping

import numpy as np

from .agents import AG_LEN, AGENTS, KIND_HEURISTIC, agent_row
from .decks import get_deck
from .play import (
    binomial_table,
    last_hand_totals,
    new_hand,
    play_game,
    predictor_game,
    sequence_counts,
)
from .rules import N_IDS, N_PLAYERS, ST_FIRST, ST_LAST, ST_SCORE, ST_TURNS, rule_switches

#: Placeholders for play_game's optional inputs: no move log, no 2-sequence table.
NO_LOG = np.empty((0, 3), dtype=np.int64)
NO_TABLE = np.zeros((N_IDS, N_IDS), dtype=np.float64)


def table_signature(table: np.ndarray) -> str:
    """Short content hash of a weight/likelihood table (goes into configs and cache keys)."""
    return hashlib.sha256(np.ascontiguousarray(table, dtype=np.float64).tobytes()).hexdigest()[:16]


def agents_array(seats, episodes: int) -> np.ndarray:
    if len(seats) != N_PLAYERS:
        raise ValueError(f"seats must name {N_PLAYERS} agents, got {list(seats)!r}")
    ag = np.zeros((N_PLAYERS, AG_LEN), dtype=np.int64)
    for p, name in enumerate(seats):
        ag[p] = agent_row(name, episodes)
    return ag


def _heuristic_weights(config: Mapping[str, Any], n_types: int) -> np.ndarray:
    weights = config.get("weights")
    if weights is None:
        if any(AGENTS[s][0] == KIND_HEURISTIC for s in config["seats"]):
            raise ValueError("a config with a HeuristicAI seat needs 'weights'")
        return np.zeros(n_types)
    hw = np.asarray(weights, dtype=np.float64)
    if hw.shape != (n_types,):
        raise ValueError(f"weights must have one entry per card type ({n_types}), got {len(hw)}")
    return hw


class GameTask:
    """``(config, index, rng) -> row``: one hand of Frank's Zoo, seat 0 is the tested agent.

    ``tables`` maps a table signature to its 2-sequence weight table, for the Monte Carlo
    playout policies of §4.2-4.3.
    """

    def __init__(self, tables: Mapping[str, np.ndarray] | None = None):
        self.tables = dict(tables or {})

    def __call__(self, config: Mapping[str, Any], index: int, rng: np.random.Generator) -> dict:
        deck = get_deck(config["deck"])
        sp = rule_switches(deck, config["pass_rule"])
        ag = agents_array(config["seats"], config.get("episodes", 100))
        hw = _heuristic_weights(config, deck.n_types)
        sig = config.get("table")
        W = self.tables[sig] if sig else NO_TABLE
        hands, st = new_hand(deck.counts, sp, rng)
        start = int(st[ST_LAST])  # the opener, before any move
        play_game(hands, st, deck.beats, sp, ag, hw, W, rng, NO_LOG)
        row = {"start": start, "turns": int(st[ST_TURNS]), "first": int(st[ST_FIRST])}
        for p in range(N_PLAYERS):  # places follow from the scores 4, 3, 2, 0
            row[f"score{p}"] = int(st[ST_SCORE + p])
        return row


def hand_totals_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> list[dict]:
    """§3.4 training batch: cards left in the last player's hand per type, RandomAI x 4."""
    deck = get_deck(config["deck"])
    sp = rule_switches(deck, config["pass_rule"])
    ag = agents_array(["RandomAI"] * N_PLAYERS, 1)
    totals = last_hand_totals(deck.counts, deck.beats, sp, ag, np.zeros(deck.n_types), NO_TABLE,
                              int(config["games"]), rng)
    return [{"type": t, "type_name": deck.type_names[t], "cards_left": int(totals[t])}
            for t in range(deck.n_types)]


def sequence_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> list[dict]:
    """2-sequence counts of a training batch (§4.2 with RandomAI, §6 with HeuristicAI).

    Rows are the non-zero cells ``(a, b, played, won)``; summing them over batches gives the
    tables.
    """
    deck = get_deck(config["deck"])
    sp = rule_switches(deck, config["pass_rule"])
    ag = agents_array(config["seats"], 1)
    hw = _heuristic_weights(config, deck.n_types)
    played, won = sequence_counts(deck.counts, deck.beats, sp, ag, hw, NO_TABLE,
                                  int(config["games"]), rng)
    a_idx, b_idx = np.nonzero(played)
    return [{"a": int(a), "b": int(b), "played": int(played[a, b]), "won": int(won[a, b])}
            for a, b in zip(a_idx, b_idx)]


class PredictorTask:
    """§6.1 test game: ``(config, index, rng) -> row`` with the predictor's hits and decisions."""

    def __init__(self, likelihood: np.ndarray):
        self.likelihood = np.ascontiguousarray(likelihood, dtype=np.float64)
        self.comb = binomial_table()

    def __call__(self, config: Mapping[str, Any], index: int, rng: np.random.Generator) -> dict:
        deck = get_deck(config["deck"])
        sp = rule_switches(deck, config["pass_rule"])
        ag = agents_array(config["seats"], 1)
        hw = _heuristic_weights(config, deck.n_types)
        correct, decisions, correct_moves, moves = predictor_game(
            deck.counts, deck.beats, sp, ag, hw, NO_TABLE, self.likelihood, self.comb,
            bool(config["at_least"]), rng)
        return {"correct": int(correct), "decisions": int(decisions),
                "correct_moves": int(correct_moves), "moves": int(moves)}


# ------------------------------------------------------------------ turning rows into tables
def sequence_tables(rows, deck_name: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Sum the ``sequence_task`` rows (optionally of one deck) into ``(played, won)``."""
    if deck_name is not None:
        rows = rows[rows["deck"] == deck_name]
    played = np.zeros((N_IDS, N_IDS), dtype=np.int64)
    won = np.zeros((N_IDS, N_IDS), dtype=np.int64)
    np.add.at(played, (rows["a"].to_numpy(), rows["b"].to_numpy()), rows["played"].to_numpy())
    np.add.at(won, (rows["a"].to_numpy(), rows["b"].to_numpy()), rows["won"].to_numpy())
    return played, won


def win_weights(played: np.ndarray, won: np.ndarray) -> np.ndarray:
    """§4.2: w[a, b] = #games in which [a, b] leads to a win / #games in which it is played."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(played > 0, won / np.maximum(played, 1), 0.0)


def likelihoods(played: np.ndarray) -> np.ndarray:
    """Equation 4: l[a, b] = #[a, b] played / #a played (the row's total)."""
    totals = played.sum(axis=1, keepdims=True)
    return np.where(totals > 0, played / np.maximum(totals, 1), 0.0)


def heuristic_weights(totals: np.ndarray) -> list[int]:
    """§3.4: cards left in the last player's hand per type, divided by 1,000 and rounded."""
    return [int(x) for x in np.floor(np.asarray(totals, dtype=np.float64) / 1000.0 + 0.5)]
