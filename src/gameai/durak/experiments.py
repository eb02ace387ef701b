"""Durak experiments as pure task functions ``(config, index, rng) -> rows``.

No I/O and no plotting. A *game* config is a plain JSON-able dict::

    {"n_players": 2, "deck": 36, "seats": ["EvalAI", "RandomAI"],
     "limit": "openfool", "throw": "openfool", "refill": "openfool", "draw": "draw",
     "transfer": False, "deuce_beats_ace": False, "rotate": True, "budget": 20,
     "transfer_check": "standard", "deck_rule": "openfool"}

Only ``n_players``, ``deck`` and ``seats`` are required; the rest default to the values shown
(OpenFool's rules, seats rotated, 20 Monte Carlo determinisations per decision). With
``rotate``, game ``index`` seats ``seats[(s + index) % n]`` at seat ``s``, so every agent
visits every seat (and the first-attacker advantage averages out over ``n`` games).

Row columns never reuse a config key (the runner adds the config's items to every row).

* :func:`game_task` - one game, one row: the agent, finishing place and initial hand values of
  every seat, the fool (or a draw).
* :func:`bout_task` - one game, one row per (bout, seat still playing): hand size, talon, the
  evaluator with Int and with true division, and whether that seat ended as the fool (for the
  article's "many cards late in the game are bad").
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np
from numba import njit

from . import evaluation as ev
from .agents import (
    AGENTS,
    MAX_ACTIONS,
    MIX_LEAD_HV,
    agent_action,
    agents_array,
    eval_action_mix,
    play_game,
    smallest_action,
)
from .rules import (
    DECK_SIZES,
    DRAW_RULES,
    LIMIT_RULES,
    MAX_PLAYERS,
    PH_ATTACK,
    PH_OVER,
    DECK_RULES,
    REFILL_RULES,
    SP_LOW,
    SP_NCARDS,
    SP_NP,
    ST_BOUTS,
    ST_CUR,
    ST_CAPPED,
    ST_DRAWN,
    ST_FIRST,
    ST_FOOL,
    ST_NA,
    ST_OUT,
    ST_PHASE,
    ST_PLACE,
    ST_SIZE,
    ST_TRUMP,
    ST_TURNS,
    THROW_RULES,
    TRANSFER_CHECKS,
    apply_action,
    deal,
    legal_actions,
    new_arrays,
    rule_switches,
)

EXPERIMENTS_VERSION = "1"

DEFAULTS = {"limit": "openfool", "throw": "openfool", "refill": "openfool", "draw": "draw",
            "transfer": False, "deuce_beats_ace": False, "rotate": True, "budget": 20,
            "transfer_check": "standard", "deck_rule": "openfool"}
REQUIRED = ("n_players", "deck", "seats")
CHOICES = {"limit": tuple(LIMIT_RULES), "throw": tuple(THROW_RULES),
           "refill": tuple(REFILL_RULES), "draw": tuple(DRAW_RULES),
           "transfer_check": tuple(TRANSFER_CHECKS), "deck_rule": DECK_RULES}

#: Evaluator variants recorded for every seat's initial hand: column prefix -> flags.
HAND_VALUES = {"hv": 0, "hv_article": ev.ARTICLE_SCALE, "hv_x100": ev.BONUS_X100,
               "hv_truediv": ev.TRUE_DIVISION}


def validate_config(config: Mapping[str, Any]) -> dict:
    """The config with defaults filled in; ``ValueError`` naming the parameter and the allowed
    values for anything wrong."""
    if not isinstance(config, Mapping):
        raise ValueError(f"config must be a dict, got {type(config).__name__}")
    unknown = sorted(set(config) - set(REQUIRED) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown parameter {unknown[0]!r}; allowed: "
                         f"{', '.join(REQUIRED + tuple(DEFAULTS))}")
    for key in REQUIRED:
        if key not in config:
            raise ValueError(f"config needs {key!r}")
    cfg = {**DEFAULTS, **config}
    n = cfg["n_players"]
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 2 <= n <= MAX_PLAYERS:
        raise ValueError(f"n_players must be an int between 2 and {MAX_PLAYERS}, got {n!r}")
    if cfg["deck"] not in DECK_SIZES or isinstance(cfg["deck"], bool):
        raise ValueError(f"deck must be one of {', '.join(map(str, DECK_SIZES))}, "
                         f"got {cfg['deck']!r}")
    seats = cfg["seats"]
    if isinstance(seats, str) or len(seats) != n:
        raise ValueError(f"seats must list {n} agent names (one per seat), got {seats!r}")
    for name in seats:
        if name not in AGENTS:
            raise ValueError(f"seats: unknown agent {name!r}; allowed: {', '.join(AGENTS)}")
    for key, allowed in CHOICES.items():
        if cfg[key] not in allowed:
            raise ValueError(f"{key} must be one of {', '.join(allowed)}, got {cfg[key]!r}")
    for key in ("transfer", "deuce_beats_ace", "rotate"):
        if not isinstance(cfg[key], (bool, np.bool_)):
            raise ValueError(f"{key} must be true or false, got {cfg[key]!r}")
    b = cfg["budget"]
    if isinstance(b, bool) or not isinstance(b, (int, np.integer)) or b < 1:
        raise ValueError(f"budget must be an int >= 1, got {b!r}")
    cfg["seats"] = list(seats)
    return cfg


def seat_agents(cfg: Mapping[str, Any], index: int) -> list[str]:
    """Agent names by seat for game ``index`` (rotated when ``cfg['rotate']``)."""
    seats = list(cfg["seats"])
    n = len(seats)
    if not cfg.get("rotate", True):
        return seats
    return [seats[(s + index) % n] for s in range(n)]


def switches(cfg: Mapping[str, Any]) -> np.ndarray:
    return rule_switches(int(cfg["n_players"]), int(cfg["deck"]), cfg["limit"], cfg["throw"],
                         cfg["refill"], cfg["draw"], bool(cfg["transfer"]),
                         bool(cfg["deuce_beats_ace"]), cfg["transfer_check"], cfg["deck_rule"])


def _hand_values(hands, st, sp, flags: int) -> list[int]:
    n = int(sp[SP_NP])
    talon = int(sp[SP_NCARDS] - st[ST_DRAWN])
    in_hands = int(st[ST_SIZE:ST_SIZE + n].sum())
    n_ranks = 15 - int(sp[SP_LOW])
    return [int(ev.hand_value(hands[p], st[ST_SIZE + p], st[ST_TRUMP], talon, in_hands,
                              n_ranks, flags)) for p in range(n)]


def _hand_features(hands, st, sp) -> list[dict]:
    """Per seat, the initial hand's make-up behind the article's qualitative claims: trumps,
    the most cards of one rank, the most cards of one non-trump suit, and the evaluator's
    same-rank bonus (as coded and x 100) and unbalanced-hand penalty terms."""
    n = int(sp[SP_NP])
    trump = int(st[ST_TRUMP])
    base = _hand_values(hands, st, sp, 0)
    no_rank = _hand_values(hands, st, sp, ev.NO_RANK_BONUS)
    x100 = _hand_values(hands, st, sp, ev.BONUS_X100)
    no_unbal = _hand_values(hands, st, sp, ev.NO_UNBALANCED)
    out = []
    for p in range(n):
        cs = [int(c) for c in hands[p, :st[ST_SIZE + p]]]
        ranks = np.bincount([c % 13 for c in cs], minlength=13)
        suits = np.bincount([c // 13 for c in cs], minlength=4)
        suits[trump] = 0
        out.append({"trumps": sum(c // 13 == trump for c in cs), "max_rank": int(ranks.max()),
                    "max_suit": int(suits.max()), "rank_bonus": base[p] - no_rank[p],
                    "rank_bonus_x100": x100[p] - no_rank[p],
                    "unbalanced": no_unbal[p] - base[p]})
    return out


def game_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> dict:
    """One game. Row: ``deck_cards``, ``trump``, ``first`` (first attacker), ``fool`` (seat, -1
    for a draw or an abandoned game), ``is_draw`` (0/1), ``capped`` (1: abandoned as endless after
    ``rules.MAX_TURNS`` actions, no fool), ``fool_agent`` ("" when none), ``bouts``, ``turns``,
    and per
    seat ``p``: ``agent{p}``, ``place{p}`` (0 = first out; the fool n - 1; players out in the
    same bout share a place), ``hv{p}`` (initial hand value, OpenFool's current evaluator),
    ``hv_article{p}``, ``hv_x100{p}``, ``hv_truediv{p}`` (the switched evaluators), and the
    initial hand's ``trumps{p}``, ``max_rank{p}`` (most cards of one rank), ``max_suit{p}``
    (most cards of one non-trump suit), ``rank_bonus{p}`` / ``rank_bonus_x100{p}`` (the
    same-rank term as coded / x 100) and ``unbalanced{p}`` (the penalty, >= 0)."""
    cfg = validate_config(config)
    sp = switches(cfg)
    names = seat_agents(cfg, index)
    ag = agents_array(names, int(cfg["budget"]))
    hands, talon, st = new_arrays(sp)
    deal(hands, talon, st, sp, rng)
    values = {prefix: _hand_values(hands, st, sp, flags) for prefix, flags in HAND_VALUES.items()}
    features = _hand_features(hands, st, sp)
    play_game(hands, talon, st, sp, ag, rng)
    fool = int(st[ST_FOOL])
    capped = int(st[ST_CAPPED])
    row = {"deck_cards": int(sp[SP_NCARDS]), "trump": int(st[ST_TRUMP]),
           "first": int(st[ST_FIRST]), "fool": fool, "is_draw": int(fool < 0 and not capped),
           "capped": capped, "fool_agent": names[fool] if fool >= 0 else "",
           "bouts": int(st[ST_BOUTS]), "turns": int(st[ST_TURNS])}
    for p, name in enumerate(names):
        row[f"agent{p}"] = name
        row[f"place{p}"] = int(st[ST_PLACE + p])
        for prefix in HAND_VALUES:
            row[f"{prefix}{p}"] = values[prefix][p]
        for name, value in features[p].items():
            row[f"{name}{p}"] = int(value)
    return row


# ======================================================================================
# Bout-level records
# ======================================================================================
REC_COLS = ("bout", "seat", "size", "talon", "in_hands", "hv", "hv_truediv")


@njit(cache=True)
def play_recording(hands, talon, st, sp, ag, rng, rec):
    """Play to the end, writing one record per (bout start, seat still playing) into ``rec``
    (columns ``REC_COLS``); returns the number of records."""
    mv = np.empty(MAX_ACTIONS, dtype=np.int64)
    n = sp[SP_NP]
    n_ranks = 15 - sp[SP_LOW]
    k_rec = 0
    while st[ST_PHASE] != PH_OVER:
        if st[ST_PHASE] == PH_ATTACK and st[ST_NA] == 0:
            left = sp[SP_NCARDS] - st[ST_DRAWN]
            tot = 0
            for q in range(n):
                tot += st[ST_SIZE + q]
            for q in range(n):
                if st[ST_OUT + q] == 0 and k_rec < rec.shape[0]:
                    size = st[ST_SIZE + q]
                    rec[k_rec, 0] = st[ST_BOUTS]
                    rec[k_rec, 1] = q
                    rec[k_rec, 2] = size
                    rec[k_rec, 3] = left
                    rec[k_rec, 4] = tot
                    rec[k_rec, 5] = ev.hand_value(hands[q], size, st[ST_TRUMP], left, tot,
                                                  n_ranks, 0)
                    rec[k_rec, 6] = ev.hand_value(hands[q], size, st[ST_TRUMP], left, tot,
                                                  n_ranks, ev.TRUE_DIVISION)
                    k_rec += 1
        k = legal_actions(hands, st, sp, mv)
        act = mv[0] if k == 1 else agent_action(ag, st[ST_CUR], hands, talon, st, sp, mv, k, rng)
        apply_action(hands, talon, st, sp, act)
    return k_rec


def bout_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> list[dict]:
    """One game; one row per (bout, seat still playing): ``REC_COLS`` + ``agent``, ``fool``
    (1 if this seat ended as the fool) and ``place``."""
    cfg = validate_config(config)
    sp = switches(cfg)
    names = seat_agents(cfg, index)
    ag = agents_array(names, int(cfg["budget"]))
    hands, talon, st = new_arrays(sp)
    deal(hands, talon, st, sp, rng)
    rec = np.empty((4096, len(REC_COLS)), dtype=np.int64)
    k = play_recording(hands, talon, st, sp, ag, rng, rec)
    rows = []
    for i in range(k):
        row = {c: int(v) for c, v in zip(REC_COLS, rec[i])}
        q = row["seat"]
        row["agent"] = names[q]
        row["fool"] = int(st[ST_FOOL] == q)
        row["place"] = int(st[ST_PLACE + q])
        rows.append(row)
    return rows


# ======================================================================================
# Opening leads (our diagnosis of EvalAI against SmallestAI)
# ======================================================================================
LEAD_COLS = ("leads", "differ", "group", "higher", "trump", "hv_smallest", "gap")


@njit(cache=True)
def play_leads(hands, talon, st, sp, ag, rng, seat, out):
    """Play to the end; at every opening lead of ``seat`` (an EvalAI) with a choice, add to
    ``out`` (``LEAD_COLS``): leads; leads unlike SmallestAI's (its smallest card); of those, the
    ones from a rank held two or more times, of a higher rank than the smallest card, of a trump
    where the smallest card is not one, and the ones where HV(hand - c) alone (no rank-group
    bonus) would have led SmallestAI's card; and the sum of rank gaps (EvalAI's lead minus the
    smallest card, both non-trumps)."""
    mv = np.empty(MAX_ACTIONS, dtype=np.int64)
    while st[ST_PHASE] != PH_OVER:
        k = legal_actions(hands, st, sp, mv)
        p = st[ST_CUR]
        if k == 1:
            act = mv[0]
        else:
            act = agent_action(ag, p, hands, talon, st, sp, mv, k, rng)
            if p == seat and st[ST_PHASE] == PH_ATTACK:
                s = smallest_action(hands, st, sp, mv, k)
                out[0] += 1
                if act != s:
                    trump = st[ST_TRUMP]
                    ce = hands[p, act]
                    cs = hands[p, s]
                    out[1] += 1
                    cnt = 0
                    for i in range(st[ST_SIZE + p]):
                        if hands[p, i] % 13 == ce % 13:
                            cnt += 1
                    if cnt >= 2:
                        out[2] += 1
                    if ce % 13 > cs % 13:
                        out[3] += 1
                    if ce // 13 == trump and cs // 13 != trump:
                        out[4] += 1
                    if eval_action_mix(hands, st, sp, mv, k, ag[p, 1], MIX_LEAD_HV) == s:
                        out[5] += 1
                    if ce // 13 != trump and cs // 13 != trump:
                        out[6] += ce % 13 - cs % 13
        apply_action(hands, talon, st, sp, act)


def lead_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> dict:
    """One game of ``seats`` (seat rotation as in :func:`game_task`); the opening leads of the
    first EvalAI seat against SmallestAI's choice in the same position (``LEAD_COLS``)."""
    cfg = validate_config(config)
    sp = switches(cfg)
    names = seat_agents(cfg, index)
    seat = names.index("EvalAI")
    ag = agents_array(names, int(cfg["budget"]))
    hands, talon, st = new_arrays(sp)
    deal(hands, talon, st, sp, rng)
    out = np.zeros(len(LEAD_COLS), dtype=np.int64)
    play_leads(hands, talon, st, sp, ag, rng, seat, out)
    return {c: int(v) for c, v in zip(LEAD_COLS, out)}


def warmup() -> None:
    """Compile (or load from the cache) every jitted path once, before workers start."""
    rng = np.random.default_rng(0)
    cfg = {"n_players": 2, "deck": 24, "seats": ["EvalAI", "MC-AI"], "budget": 1,
           "transfer": True}
    game_task(cfg, 0, rng)
    bout_task({**cfg, "seats": ["RandomAI", "SmallestAI"]}, 0, rng)
    lead_task({**cfg, "seats": ["EvalAI", "SmallestAI"]}, 0, rng)
    game_task({**cfg, "seats": ["EvalAI/lead-smallest", "EvalAI/beat-always"]}, 0, rng)
