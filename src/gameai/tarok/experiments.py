"""Tarok experiments as pure task functions ``(config, index, rng) -> rows``; no I/O, no plots.

Deals come from ``index`` and the config's ``deal_seed`` alone (``deal_for``), so every config
of an experiment - search switches, agent pairings - sees the same deals; ``rng`` (the runner's,
one per task) drives everything else (samples, random players, simulations).

* ``search_cost_task`` - paper Table 1 / thesis Table 8: the search for one decision (default:
  the first card of a deal of "three", the declarer = forehand to lead) on ``samples`` sampled
  deals, the same samples for every configuration. One row per (depth, configuration, sample):
  ``deal, depth, config, sample, nodes, seconds, card`` (the sample's best card) and
  ``decision`` (the card the summed values choose for the whole decision), ``n_legal``::

      {"configs": ["all", "none", ...], "depths": [9], "samples": 20, "tricks_played": 0,
       "deal_seed": 2003}

  ``tricks_played`` > 0 (or ``"random"``: 0-12) plays that many random tricks first (the
  fuzzy-table test on positions later in the game). ``root_window``: ``"full"`` searches every
  root card with the full window (exact card values, as the program sums them over samples);
  ``"alphabeta"`` makes the root an alpha-beta node too (only the best value exact) - the
  thesis does not say which its node counts used, so the chapter can show both.
  ``minimal_window`` (``"pvs"`` | ``"thesis"``), ``pruning`` (``"spec"`` | ``"thesis"``),
  ``second_highest`` (``"always"`` | ``"queen"``) and ``tt_key`` (``"seat"`` | ``"thesis"``)
  are the other switches of ``search`` (thesis Algorithm 6 as printed; Tables 5-6; p. 28
  item 4; eqs. 5-6); the thesis's own program sets all five
  (``search.SEARCH_VARIANTS["thesis"]``). A config leaves a switch out at its sound default,
  so the sound experiments' task keys stay as they were.
  ``sample_seed``: ``"deal"`` draws sample ``j`` of deal ``index`` from a seed of (deal_seed,
  index, j) alone (``sample_rng``), so every experiment and configuration that searches that
  deal searches the same samples (common random numbers: the steps between configurations are
  paired); ``"task"`` (the default, kept for the fuzzy-table experiments' stored rows) draws
  them from the runner's task generator, which depends on the experiment's config.
  ``count_tt``: each row also carries ``tt_answers``, the nodes of its count that the
  transposition table answered (``search.search_root_counted``; off by default, so the rows of
  experiments computed before the counter existed keep their columns).
* ``window_cost_task`` - what Algorithm 6's unsound window costs: on positions after 0-12
  random tricks, each config searched with the thesis window and with PVS, the chosen card
  against exact plain alpha-beta (full root window) and the value it loses::

      {"configs": ["only_minwindow", "all"], "depth": 9, "samples": 1,
       "tricks_played": "random", "search": "thesis", "deal_seed": 2003}

* ``game_task`` - playing strength (spec "Playing strength"): the tested ``player`` is the
  declarer of ``contract`` (default "three"), the declarer's seat rotating with the deal index,
  against two ``opponent`` players; the talon and discards are chosen by the same fixed rule for
  every player (``heuristic_talon``) so only card play differs. Row: ``deal, seat, player,
  opponent, contract, points`` (declarer's counted card points of 70), ``win`` (more than 35;
  beggar: no trick), ``score, nodes, seconds``::

      {"player": "tarokist", "opponent": "rule", "contract": "three", "samples": 20,
       "depths": [9, 12, 15], "deal_seed": 2003}

* ``session_task`` - whole games with bidding, talon choice and announcements by three
  ``agents.Tarokist`` bidders over ``games`` deals (forehand rotating), card play by ``play``.
  One row per game: contract, declarer, announcements, bonuses achieved, scores, and every
  player's margin and announcement thresholds after adaptation (the adaptive margin's path)::

      {"games": 20, "play": "tarokist", "samples": 20, "depths": [9, 12, 15], "bid_sims": 5,
       "bid_talon_sims": 1, "talon_sims": 20, "sim_depth": 3, "margin": 7.0,
       "deal_seed": 2003}

  ``bid_talon_sims`` test games per discard candidate when a bidder chooses the talon of each
  of its random talons (0: a fixed rule instead, much cheaper).
"""

from __future__ import annotations

import functools
import math
import time
from typing import Any, Mapping

import numpy as np

from ..core.configs import check_keys

from . import rules as R
from .agents import AGENT_NAMES, AGENTS, DEPTHS, Tarokist, agent_row, discard_candidates, play_out
from .sampling import sample_state
from .search import (CONFIGS, MINIMAL_WINDOWS, PRUNINGS, ROOTS, SEARCH_VARIANTS,
                     SECOND_HIGHEST, TT_KEYS, config_cfg, search_root, search_root_counted,
                     shared_tables)

DEAL_SEED = 2003
TABLE1_CONFIGS = ["all", "no_tt", "no_history", "no_minwindow", "no_pruning", "only_tt",
                  "only_history", "only_minwindow", "only_pruning", "none"]
TABLE8_CONFIGS = ["only_tt", "only_history", "only_minwindow", "only_pruning", "none"]
CONTRACT_CODES = {name: i for i, name in enumerate(R.CONTRACT_NAMES)}

SEARCH_KEYS = {"configs": TABLE1_CONFIGS, "depths": [9], "samples": 20, "tricks_played": 0,
               "root_window": "full", "minimal_window": "pvs", "pruning": "spec",
               "second_highest": "always", "tt_key": "seat", "sample_seed": "task",
               "count_tt": False, "deal_seed": DEAL_SEED}
#: Where a search experiment's sampled deals come from (module docstring, ``sample_seed``).
SAMPLE_SEEDS = ("task", "deal")
ROOT_WINDOWS = ROOTS
#: The minimal-window cost (``window_cost_task``): each config searched with thesis
#: Algorithm 6's window and with the sound one, the rest of the named ``search`` variant kept.
#: ``second_highest`` and ``tt_key`` are config items (not taken from the named ``search``),
#: so that their values are part of the task key.
WINDOW_KEYS = {"configs": ["only_minwindow", "all"], "depth": 9, "samples": 1,
               "tricks_played": "random", "search": "thesis", "windows": ["pvs", "thesis"],
               "second_highest": "always", "tt_key": "seat", "deal_seed": DEAL_SEED}
GAME_KEYS = {"player": None, "opponent": None, "contract": "three", "samples": 20,
             "depths": list(DEPTHS), "deal_seed": DEAL_SEED}
SESSION_KEYS = {"games": 20, "play": "tarokist", "samples": 20, "depths": list(DEPTHS),
                "bid_sims": 5, "bid_talon_sims": 1, "talon_sims": 20, "sim_depth": 3,
                "margin": 7.0, "deal_seed": DEAL_SEED}


# ------------------------------------------------------------------------------ validation
def _int(cfg: dict, key: str, lo: int, hi: int | None = None) -> int:
    v = cfg[key]
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < lo or (
            hi is not None and v > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise ValueError(f"{key} must be a whole number {rng}, got {v!r}")
    return int(v)


def _depths(cfg: dict, key: str, n: int | None) -> list[int]:
    v = cfg[key]
    if not isinstance(v, (list, tuple)) or (n is not None and len(v) != n) or not v or any(
            isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1 for d in v):
        need = f"{n} " if n else ""
        raise ValueError(f"{key} must be a list of {need}whole numbers >= 1, got {v!r}")
    return [int(d) for d in v]


def _agent(label: str, name: Any) -> str:
    if name not in AGENTS:
        raise ValueError(f"{label} must be one of {', '.join(AGENT_NAMES)}; got {name!r}")
    return name


def search_config(config: Mapping[str, Any]) -> dict:
    cfg = check_keys(config, SEARCH_KEYS, "search")
    names = cfg["configs"]
    if not isinstance(names, (list, tuple)) or not names or any(n not in CONFIGS for n in names):
        raise ValueError(f"configs must be a list of {', '.join(CONFIGS)}; got {names!r}")
    cfg["configs"] = list(names)
    cfg["depths"] = _depths(cfg, "depths", None)
    _int(cfg, "samples", 1)
    _int(cfg, "deal_seed", 0)
    if cfg["tricks_played"] != "random":
        _int(cfg, "tricks_played", 0, 12)
    for key, choices in (("root_window", ROOT_WINDOWS), ("minimal_window", MINIMAL_WINDOWS),
                         ("pruning", PRUNINGS), ("second_highest", SECOND_HIGHEST),
                         ("tt_key", TT_KEYS), ("sample_seed", SAMPLE_SEEDS)):
        _choose(cfg, key, choices)
    if not isinstance(cfg["count_tt"], bool):
        raise ValueError(f"count_tt must be true or false, got {cfg['count_tt']!r}")
    return cfg


def _choose(cfg: dict, key: str, choices) -> str:
    if cfg[key] not in choices:
        raise ValueError(f"{key} must be one of {', '.join(choices)}; got {cfg[key]!r}")
    return cfg[key]


def window_config(config: Mapping[str, Any]) -> dict:
    cfg = check_keys(config, WINDOW_KEYS, "window")
    names = cfg["configs"]
    if not isinstance(names, (list, tuple)) or not names or any(n not in CONFIGS for n in names):
        raise ValueError(f"configs must be a list of {', '.join(CONFIGS)}; got {names!r}")
    cfg["configs"] = list(names)
    _int(cfg, "depth", 1)
    _int(cfg, "samples", 1)
    _int(cfg, "deal_seed", 0)
    if cfg["tricks_played"] != "random":
        _int(cfg, "tricks_played", 0, 12)
    w = cfg["windows"]
    if not isinstance(w, (list, tuple)) or not w or any(x not in MINIMAL_WINDOWS for x in w):
        raise ValueError(f"windows must be a list of {', '.join(MINIMAL_WINDOWS)}; got {w!r}")
    cfg["windows"] = list(w)
    _choose(cfg, "second_highest", SECOND_HIGHEST)
    _choose(cfg, "tt_key", TT_KEYS)
    if cfg["search"] not in SEARCH_VARIANTS:
        raise ValueError(f"search must be one of {', '.join(SEARCH_VARIANTS)}; "
                         f"got {cfg['search']!r}")
    return cfg


def game_config(config: Mapping[str, Any]) -> dict:
    cfg = check_keys(config, GAME_KEYS, "game")
    cfg["player"] = _agent("player", cfg["player"])
    cfg["opponent"] = _agent("opponent", cfg["opponent"])
    allowed = [n for n in R.CONTRACT_NAMES if n != "klop"]
    if cfg["contract"] not in allowed:
        raise ValueError(f"contract must be one of {', '.join(allowed)}; got {cfg['contract']!r}")
    _int(cfg, "samples", 1)
    _int(cfg, "deal_seed", 0)
    cfg["depths"] = _depths(cfg, "depths", 3)
    return cfg


def session_config(config: Mapping[str, Any]) -> dict:
    cfg = check_keys(config, SESSION_KEYS, "session")
    cfg["play"] = _agent("play", cfg["play"])
    for key in ("games", "samples", "bid_sims", "talon_sims", "sim_depth"):
        _int(cfg, key, 1)
    _int(cfg, "bid_talon_sims", 0)
    _int(cfg, "deal_seed", 0)
    cfg["depths"] = _depths(cfg, "depths", 3)
    m = cfg["margin"]
    if isinstance(m, bool) or not isinstance(m, (int, float)) or not math.isfinite(m):
        raise ValueError(f"margin must be a finite number, got {m!r}")
    return cfg


# ------------------------------------------------------------------------------ deals
def deal_for(index: int, deal_seed: int = DEAL_SEED):
    """(hands, talon) of deal ``index``: the same for every config of an experiment."""
    return R.deal(np.random.default_rng([int(deal_seed), int(index)]))


def heuristic_talon(hands, talon, contract: int, decl: int) -> tuple[int, int]:
    """The fixed talon rule of the strength experiments: the group with the most card points
    (a tarok counts 3 more), and the first void-making discard set (``discard_candidates``)."""
    k = int(R.TALON_TAKE[contract])
    groups = [talon[i * k:(i + 1) * k] for i in range(R.TALON_SIZE // k)]
    g = max(range(len(groups)), key=lambda i: (
        sum(int(R.POINTS[c]) + (3 if c < 22 else 0) for c in groups[i]), -i))
    take = sum(1 << int(c) for c in groups[g])
    return g, discard_candidates(int(hands[decl]) | take, k)[0]


def prepared_state(index: int, contract: int, decl: int, deal_seed: int) -> np.ndarray:
    hands, talon = deal_for(index, deal_seed)
    S = R.new_state(hands, talon, contract, decl, 0)
    if R.TALON_TAKE[contract]:
        g, d = heuristic_talon(hands, talon, contract, decl)
        if not R.exchange(S, g, np.int64(d)):
            raise RuntimeError("heuristic_talon chose an illegal exchange")
    return S


@functools.lru_cache(maxsize=1)
def warm_up() -> bool:
    """Compile (or load from numba's cache) the search before any timing."""
    S = prepared_state(0, R.THREE, 0, 0)
    moves = np.zeros(16, dtype=np.int64)
    vals = np.zeros(16, dtype=np.int64)
    for name in CONFIGS:
        search_root(S, 0, 2, config_cfg(name), *shared_tables().args(), moves, vals)
    return True


# ------------------------------------------------------------------------------ Table 1
def sample_rng(deal_seed: int, index: int, sample: int) -> np.random.Generator:
    """The generator of sample ``sample`` of deal ``index`` under ``sample_seed = "deal"``: a
    seed of the deal and the sample index alone, never of the configuration (common random
    numbers across configurations and experiments)."""
    return np.random.default_rng([int(deal_seed), int(index), 2, int(sample)])


def _position_samples(cfg: dict, index: int, rng: np.random.Generator):
    """(state, seat to play, sampled deals) of deal ``index`` after ``tricks_played`` random
    tricks (the same for every config), ``samples`` deals sampled from that seat's view: from
    the task's ``rng``, or with ``sample_seed = "deal"`` from ``sample_rng`` (module
    docstring)."""
    warm_up()
    S = prepared_state(index, R.THREE, 0, cfg["deal_seed"])
    played = cfg["tricks_played"]
    prng = np.random.default_rng([int(cfg["deal_seed"]), int(index), 1])
    if played == "random":
        played = int(prng.integers(0, 13))
    while S[R.S_TRICKNO] < played:
        R.play(S, R.random_bit(R.legal_mask(S), prng))
    me = int(S[R.S_TURN])
    samples = []
    by_deal = cfg.get("sample_seed", "task") == "deal"
    for j in range(cfg["samples"]):
        T = np.empty_like(S)
        sample_state(S, me, sample_rng(cfg["deal_seed"], index, j) if by_deal else rng, T)
        samples.append(T)
    return S, me, samples


def search_cost_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> list:
    """Nodes and seconds of the search for one decision, per sample (module docstring)."""
    cfg = search_config(config)
    S, me, samples = _position_samples(cfg, index, rng)
    tables = shared_tables()
    moves = np.zeros(16, dtype=np.int64)
    vals = np.zeros(16, dtype=np.int64)
    rows = []
    for depth in cfg["depths"]:
        for name in cfg["configs"]:
            cfg_row = config_cfg(name, root=cfg["root_window"],
                                 minimal_window=cfg["minimal_window"], pruning=cfg["pruning"],
                                 second_highest=cfg["second_highest"], tt_key=cfg["tt_key"])
            totals = {}
            start = len(rows)
            for j, T in enumerate(samples):
                counter = np.zeros(2, dtype=np.int64)
                t0 = time.perf_counter()
                n = search_root_counted(T, me, depth, cfg_row, *tables.args(), moves, vals,
                                        counter)
                dt = time.perf_counter() - t0
                best = int(moves[int(np.argmax(vals[:n]))])
                for i in range(n):
                    totals[int(moves[i])] = totals.get(int(moves[i]), 0) + int(vals[i])
                rows.append({"deal": index, "tricks_played": int(S[R.S_TRICKNO]),
                             "depth": depth, "config": name, "root_window": cfg["root_window"],
                             "sample": j, "nodes": int(counter[0]),
                             "seconds": dt, "card": R.card_name(best), "n_legal": n})
                if cfg["count_tt"]:
                    rows[-1]["tt_answers"] = int(counter[1])
            decision = R.card_name(max(sorted(totals), key=lambda c: totals[c]))
            for row in rows[start:]:
                row["decision"] = decision
    return rows


# ------------------------------------------------------------------------------ window cost
def _searched(T, me, depth, cfg_row, tables, moves, vals) -> tuple[dict, int, float]:
    """({card: value}, nodes, seconds) of one root search."""
    t0 = time.perf_counter()
    n, nodes = search_root(T, me, depth, cfg_row, *tables.args(), moves, vals)
    dt = time.perf_counter() - t0
    return {int(moves[i]): int(vals[i]) for i in range(n)}, int(nodes), dt


def window_cost_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> list:
    """What thesis Algorithm 6's minimal window (as printed) costs in play: on one position
    (``tricks_played`` random tricks, ``samples`` sampled deals) each config of the named
    ``search`` variant is searched with the thesis window and with the sound one (PVS), and
    both chosen cards are set against exact alpha-beta (plain, full root window: every card's
    exact value). Row per (sample, config, window): ``nodes, seconds, card, exact_card`` and
    ``loss`` = exact best value - exact value of the chosen card (thesis evaluation units)."""
    cfg = window_config(config)
    S, me, samples = _position_samples(cfg, index, rng)
    tables = shared_tables()
    moves = np.zeros(16, dtype=np.int64)
    vals = np.zeros(16, dtype=np.int64)
    variant = SEARCH_VARIANTS[cfg["search"]]
    rows = []
    for j, T in enumerate(samples):
        exact, _, _ = _searched(T, me, cfg["depth"], config_cfg("none"), tables, moves, vals)
        best_card = max(exact, key=exact.get)  # the first best card in card order
        for name in cfg["configs"]:
            for window in cfg["windows"]:
                row_cfg = config_cfg(name, root=variant["root"], minimal_window=window,
                                     pruning=variant["pruning"],
                                     second_highest=cfg["second_highest"], tt_key=cfg["tt_key"])
                got, nodes, dt = _searched(T, me, cfg["depth"], row_cfg, tables, moves, vals)
                card = max(got, key=got.get)
                rows.append({"deal": index, "tricks": int(S[R.S_TRICKNO]), "sample": j,
                             "config": name, "window": window, "nodes": nodes, "seconds": dt,
                             "card": R.card_name(card), "exact_card": R.card_name(best_card),
                             "loss": (exact[best_card] - exact[card]) / 3,
                             "n_legal": len(exact)})
    return rows


# ------------------------------------------------------------------------------ strength
def game_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> dict:
    """One deal: ``player`` declares ``contract`` against two ``opponent`` players."""
    cfg = game_config(config)
    contract = CONTRACT_CODES[cfg["contract"]]
    decl = index % R.N_PLAYERS  # seats rotated
    S = prepared_state(index, contract, decl, cfg["deal_seed"])
    ags = np.stack([agent_row(cfg["player"] if p == decl else cfg["opponent"],
                              samples=cfg["samples"], depths=tuple(cfg["depths"]))
                    for p in range(R.N_PLAYERS)])
    t0 = time.perf_counter()
    nodes = play_out(S, ags, rng)
    dt = time.perf_counter() - t0
    pts = int(R.counted_points(S[R.S_PILE + decl]))
    win = S[R.S_NTRICKS + decl] == 0 if contract == R.BEGGAR else pts > 35
    return {"deal": index, "seat": decl, "player": cfg["player"], "opponent": cfg["opponent"],
            "contract": cfg["contract"], "points": pts, "win": int(win),
            "score": int(R.scores(S)[decl]), "nodes": int(nodes), "seconds": dt}


# ------------------------------------------------------------------------------ sessions
def _bidder(viable: list[int]):
    """Bid as high as the viable contract, raising one step at a time (spec "Bidding")."""

    def choose(seat, opts, high, holder):
        if opts == [R.THREE]:
            return R.THREE
        if opts == [R.THREE, R.KLOP]:
            return R.THREE if R.THREE <= viable[seat] else R.KLOP
        ok = [c for c in opts if c != R.PASS and c <= viable[seat]]
        return min(ok) if ok else R.PASS

    return choose


def session_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> list:
    """A session of ``games`` whole games by three adaptive Tarokist bidders."""
    cfg = session_config(config)
    players = [Tarokist(margin=float(cfg["margin"]), bid_sims=cfg["bid_sims"],
                        talon_sims=cfg["talon_sims"], sim_depth=cfg["sim_depth"],
                        bid_talon_sims=cfg["bid_talon_sims"])
               for _ in range(R.N_PLAYERS)]
    row_ag = agent_row(cfg["play"], samples=cfg["samples"], depths=tuple(cfg["depths"]))
    ags = np.stack([row_ag] * R.N_PLAYERS)
    rows = []
    for g in range(cfg["games"]):
        hands, talon = deal_for(index * 100_000 + g, cfg["deal_seed"])
        fh = g % R.N_PLAYERS  # engine seat s is player (fh + s) % 3
        who = [(fh + s) % R.N_PLAYERS for s in range(R.N_PLAYERS)]
        viable = [players[who[s]].viable(s, int(hands[s]), rng) for s in range(R.N_PLAYERS)]
        contract, decl = R.run_bidding(_bidder(viable))
        S = R.new_state(hands, talon, contract, decl, 0)
        ann = 0
        if R.TALON_TAKE[contract]:
            grp, disc, ann, _ = players[who[decl]].choose_talon(hands, talon, contract, decl, rng)
            R.exchange(S, grp, np.int64(disc))
            S[R.S_ANN] = ann
        play_out(S, ags, rng)
        sc = R.scores(S)
        ach = [0, 0, 0, 0]
        if contract not in (R.KLOP, R.BEGGAR):
            ach = [int(a) for a in R.bonuses_achieved(S)]
        won = None
        if decl >= 0:
            won = bool(S[R.S_NTRICKS + decl] == 0) if contract == R.BEGGAR else bool(
                R.counted_points(S[R.S_PILE + decl]) > 35)
        for s in range(R.N_PLAYERS):
            t = players[who[s]]
            if s == decl:
                t.adapt(True, won, contract=contract)
                if R.TALON_TAKE[contract]:
                    t.adapt_announcements(ann, ach)
            else:  # our reading: passed at once, and the other side's declarer lost
                t.adapt(False, None, would_have_won=(viable[s] == R.KLOP and won is False))
        row = {"session": index, "game": g, "forehand": fh,
               "contract": R.CONTRACT_NAMES[contract],
               "declarer": who[decl] if decl >= 0 else -1,
               "announced": int(ann), "won": -1 if won is None else int(won)}
        for i, name in enumerate(R.ANN_NAMES):
            row[f"achieved_{name}"] = ach[i]
        for s in range(R.N_PLAYERS):
            p = who[s]
            row[f"score{p}"] = int(sc[s])
            row[f"viable{p}"] = R.CONTRACT_NAMES[viable[s]]
        for p in range(R.N_PLAYERS):
            row[f"margin{p}"] = players[p].margin
            for i, name in enumerate(R.ANN_NAMES[:3]):
                row[f"threshold_{name}{p}"] = round(players[p].ann[i], 3)
        rows.append(row)
    return rows
