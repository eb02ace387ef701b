"""The paper's own numbers (Gedda, Lagerkvist & Butler 2018), for comparison columns only.

Transcribed from the chapter spec (``kingdomino.md``), which read them from the paper and the
authors' published code and result files. Nothing here is ever used as a result - with one
exception by design: ``PLAYOUT_RATES`` (the authors' measured playouts per second) turns the
paper's "T seconds per ply" into playout budgets (spec "Time per ply -> playout budgets").
Percentages are percent, margins are points.
"""

from __future__ import annotations

#: Mean playouts per second of the authors' Java agents at T = 10 s, by the player's move
#: index 1..13 (200 games each, one thread, 3.2 GHz). Also used for UCT iterations.
PLAYOUT_RATES = {
    "TR": (5148, 5688, 6337, 7050, 7922, 8977, 10410, 12255, 14622, 17986, 23070, 31466, 46257),
    "FG": (29, 31, 36, 54, 79, 124, 207, 351, 672, 1340, 3120, 9482, 35412),
    "εG": (116, 119, 149, 217, 311, 485, 769, 1350, 2403, 4357, 8937, 19404, 41037),
    "PG": (123, 112, 151, 219, 333, 527, 838, 1389, 2520, 4868, 10837, 25041, 46750),
}

#: §II-B size claims.
TREE = {
    "tree.draws": 3.4e44,  # prod_{i=0}^{11} C(48 - 4i, 4)
    "tree.size": 3.74e61,  # expected game-tree size for a fixed shuffle (random play, 1,000 games)
    "tree.total": 1.27e106,
}
#: §II-B: the tree size comes from the branching factors of 1,000 random games.
TREE_GAMES = 1000

#: Table I: wins / draws / losses (%) in 1,000 games against three TR opponents.
TABLE1 = {
    "TR": (22.3, 2.9, 74.8),
    "GPRD": (79.4, 2.2, 18.4),
    "FG": (97.7, 0.2, 2.1),
}
TABLE1_GAMES = 1000

#: Table II: mean score and the number the paper prints in brackets for its 95 % interval, in
#: 500 games against three FG opponents at T = 5 s per ply. Our games give intervals of the
#: bracketed size as their *width* (hi - lo), not their half-width (``analysis.interval_widths``).
TABLE2 = {
    "FG": (51.4, 2.1),
    "MCE-TR/WDL": (55.6, 1.8),
    "MCE-TR/P": (60.6, 1.9),
    "MCE-TR/R": (59.5, 1.8),
}
TABLE2_GAMES = 500
TABLE2_T = 5.0

#: Table III: mean victory margin against three FG opponents, 200 games per cell.
TABLE3_T = (0.1, 0.2, 0.3, 0.5, 1, 2, 4, 6, 8, 10)
TABLE3 = {
    "FG": (-9.0,) * 10,
    "MCE-TR/R": (-8.5, -5.9, -4.6, -3.7, -1.5, -2.5, -0.1, -0.3, -1.1, -1.3),
    "MCE-FG/R": (-15.8, -8.8, -7.0, -3.4, -0.6, 4.3, 7.0, 8.4, 9.7, 9.6),
    "MCE-PG/R": (-12.2, -10.9, -7.5, -6.0, -1.7, 1.9, 5.4, 6.8, 8.4, 9.0),
    "MCE-εG/R": (-20.6, -16.0, -14.5, -12.2, -10.3, -7.5, -2.2, -0.3, 1.9, 1.3),
    "UCT-TR": (-13.5, -6.4, -7.3, -4.9, -5.5, -4.4, -3.5, -5.2, -7.2, -4.4),
    "UCT-FG": (-38.3, -32.5, -29.4, -21.6, -12.0, -1.5, -0.2, 3.5, 4.0, 3.9),
    "UCT-PG": (-25.8, -20.7, -15.5, -15.3, -13.9, -10.4, -7.1, -7.4, -6.2, -4.1),
    "UCT-εG": (-33.3, -24.0, -16.2, -15.7, -9.0, -7.0, -3.1, -4.0, -2.6, -1.3),
    "UCT_B-TR": (-10.1, -7.4, -6.1, -7.9, -4.6, -6.7, -4.8, -4.3, -2.9, -4.5),
    "UCT_B-FG": (-39.8, -30.6, -29.7, -21.6, -11.7, -5.9, -0.1, 3.2, 3.2, 1.4),
    "UCT_B-PG": (-25.5, -20.8, -19.7, -15.4, -13.4, -9.1, -7.6, -6.3, -4.5, -12.4),
    "UCT_B-εG": (-31.5, -25.2, -20.2, -16.3, -10.7, -8.1, -4.1, -2.6, -1.9, -2.9),
    "UCT_W-TR": (-11.4, -6.7, -7.3, -5.9, -4.6, -4.1, -5.8, -5.0, -4.0, -4.5),
    "UCT_W-FG": (-42.6, -33.0, -30.3, -18.4, -13.9, -6.0, -2.5, 0.6, 1.2, 1.4),
    "UCT_W-PG": (-29.2, -24.3, -20.0, -19.7, -15.4, -16.9, -13.1, -12.2, -13.9, -12.4),
    "UCT_W-εG": (-30.5, -23.0, -22.8, -16.6, -13.2, -6.6, -5.4, -3.1, -2.7, -2.9),
}
TABLE3_GAMES = 200
#: §V-G: "The 95% confidence intervals are in the range [3.5, 6.0] for all entries".
TABLE3_CI_RANGE = (3.5, 6.0)
#: The paper's UCT_B 10 s column repeats UCT_W's (the authors' analysis script loaded the wrong
#: files, spec); their raw UCT_B 10 s results are these - compare against them, and say so.
TABLE3_UCT_B_10S_RAW = {"UCT_B-TR": -3.3, "UCT_B-FG": 3.1, "UCT_B-εG": 0.6, "UCT_B-PG": -6.3}

#: Figs. 7-8 sweeps and the qualitative claims.
FIG7_C = (0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 1, 1.5, 2)
FIG8_W = (0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6)
QUALITATIVE = {
    "fig7.C": "C = 0.6 suits many playouts per ply, C >= 1 few playouts",
    "fig8.W": "best W is about 0.1-0.2, decreasing after",
    "conclusion.mce_beats_uct": "at every T the best MCE variant beats every UCT variant",
    "conclusion.tr_short_fg_long": "MCE-TR/R best for T < 0.5 s; MCE-FG/R best from T >= 1-2 s",
}

#: The best swept value per setup in the authors' raw result files of Figs. 7-8 (Gedda et al.,
#: kdom-ai, ``experiments/runs``; mean victory margin per value, 200 games each), which do not
#: support the paper's text: C >= 1 is worse with few playouts, and the best W is 0 or 0.1.
RAW_BEST = {
    "fig7.C": {("UCT-TR", 0.2): 0.2, ("UCT-TR", 0.5): 0.5, ("UCT-FG", 2.0): 0.6},
    "fig8.W": {("UCT_W-FG", 2.0): 0.0, ("UCT_W-TR", 2.0): 0.1},
}

#: The paper's own readings of its tables, quoted, tested as claims beyond the spec's ids:
#: §V-D on Table II, §V-E on Fig. 5 (Table III's MCE rows) and §V-G on the UCT enhancements.
READINGS = {
    "table2.mce_beats_fg": "the statistical evaluators significantly outperform the FG player",
    "table2.wdl_lowest": "MCE-TR/WDL does not reach as high final score as the other "
                         "statistical evaluators",
    "table2.p_like_r": "There is no significant difference in performance between the Player "
                       "scoring function and Relative scoring function",
    "fig5.fg_tight": "the FG evaluator is competitive to the statistical evaluators under tight "
                     "time constraints. It is comparable to MCE-TR/R, and outperforms all the "
                     "others, when the time is capped to 0.1s per move",
    "fig5.knowledge_after_1s": "they consistently outperform the random playout policy for move "
                               "times > 1s",
    "fig5.own_moves_first": "it is more important to model the player's own move realistically "
                            "than the moves of the opponent",
    "fig5.fg_vs_pg": "realistic opponent modelling is disadvantageous for short ply times (< 0.2s) "
                     "... once the number of playouts go up (> 0.1s) we see that realistic "
                     "opponent modelling consistently outperforms the player-greedy strategy, "
                     "although not by much",
    "conclusion.enhancements_short": "the UCT enhancements improve the results for tight time "
                                     "constraints (t < 0.2s), which is expected due to few "
                                     "playouts, but are otherwise on par with regular UCT",
}


def claim_rows() -> list[dict]:
    """Every claim id of the spec with the paper's value (numbers; text for qualitative ones)."""
    rows = [{"claim_id": k, "paper": v} for k, v in TREE.items()]
    for name, (w, d, l) in TABLE1.items():
        rows.append({"claim_id": f"table1.{name}", "paper": w, "draws": d, "losses": l,
                     "games": TABLE1_GAMES})
    for name, (m, ci) in TABLE2.items():
        rows.append({"claim_id": f"table2.{name}", "paper": m, "ci": ci, "games": TABLE2_GAMES})
    for name, vals in TABLE3.items():
        for t, v in zip(TABLE3_T, vals):
            raw = TABLE3_UCT_B_10S_RAW.get(name) if t == 10 else None
            row = {"claim_id": f"table3.{name}.{t}", "paper": v, "games": TABLE3_GAMES}
            if raw is not None:  # the printed value is UCT_W's; compare against the raw one
                row["paper_raw"] = raw
            rows.append(row)
    for k, v in QUALITATIVE.items():
        rows.append({"claim_id": k, "paper": v})
    return rows


# ------------------------------------------------------------------ the authors' measured budgets
#: ``authors_rates.csv`` (beside this module): for each Table III cell (strategy, T) and the
#: player's move 1..13, how many playouts per second the authors' players achieved in the games
#: behind that cell - the number of games, the mean and median rate, and the mean iterations per
#: move (T x mean rate; + 1 for UCT, whose rate is (root visits - 1) / elapsed). Computed from
#: the per-game, per-move rates the authors' published raw result files record (Gedda et al.,
#: kdom-ai, ``experiments/runs``). Used only as a budget rule for the like-for-like Table III.
AUTHORS_RATES_FILE = "authors_rates.csv"


def _authors_csv(name: str):
    """One of the authors' data files beside this module (a DataFrame, T as float; lines
    starting with ``#`` are its provenance header)."""
    from importlib.resources import files

    import pandas as pd

    with files(__package__).joinpath(name).open("r", encoding="utf-8") as f:
        df = pd.read_csv(f, comment="#")
    df["T"] = df["T"].astype(float)
    return df


def authors_rates():
    """The authors' measured rates per Table III cell and move (a DataFrame, T as float)."""
    return _authors_csv(AUTHORS_RATES_FILE)


_ITERATIONS: dict | None = None


def authors_iterations(strategy: str, T: float) -> tuple[float, ...]:
    """The authors' mean playouts (UCT: iterations) for moves 1..13 of Table III's cell
    (strategy, T): a missing cell is an error, never a silent fallback to the rate rule."""
    global _ITERATIONS
    if _ITERATIONS is None:
        df = authors_rates().sort_values(["strategy", "T", "move"])
        _ITERATIONS = {(s, float(t)): tuple(g["mean_iterations"].astype(float))
                       for (s, t), g in df.groupby(["strategy", "T"])}
    key = (strategy, round(float(T), 6))
    if key not in _ITERATIONS or len(_ITERATIONS[key]) != 13:
        cells = sorted({s for s, _ in _ITERATIONS})
        raise ValueError(
            f"budget 'authors' has no measured playouts for {strategy} at T = {T:g} s: the "
            f"authors' rates cover Table III's cells only (strategies {', '.join(cells)}; "
            f"T in {', '.join(f'{t:g}' for t in TABLE3_T)} s)")
    return _ITERATIONS[key]


# ------------------------------------------------------------------ the authors' own games
#: ``data/kingdomino/authors_games.csv``: the authors' own 200 games behind every Table III cell
#: (170 cells; FG's ten share one file), one row per game - the player's win (1/0/-1), score and
#: victory margin (``score_diff``) and its three FG opponents' scores - copied by
#: :mod:`.authors_import` from their published raw result files (Gedda et al., kdom-ai,
#: ``experiments/runs``: the files their table scripts ``experiments/process_experiment_8.m``
#: and ``process_experiment_4.m`` load, except UCT_B at 10 s, where the script loads UCT_W's
#: files and the copy takes UCT_B's own; the CSV's header names each file and commit). Source
#: data, not a result: it lies in the committed results folder, whatever folder a run writes to.
AUTHORS_GAMES_FILE = "authors_games.csv"


def authors_games_path():
    """Where the authors' games are committed: ``data/kingdomino/authors_games.csv``."""
    from ..core.datadirs import committed_data_dir

    return committed_data_dir() / "kingdomino" / AUTHORS_GAMES_FILE


def authors_games():
    """The authors' own games per Table III cell (a DataFrame, T as float; see above)."""
    import pandas as pd

    df = pd.read_csv(authors_games_path(), comment="#")
    df["T"] = df["T"].astype(float)
    return df


#: The two Table III cells whose printed value is not the authors' games' mean to its rounding
#: (found by the unit test of ``authors_games``): each printed one unit of the last digit from
#: the mean of the file the table script loads - MCE-εG/R at 0.2 s (mean -16.06, printed
#: -16.0) and UCT_W-FG at 0.3 s (mean -30.355, printed -30.3). The UCT_B 10 s column is the
#: other slip, of whole files (``TABLE3_UCT_B_10S_RAW``).
AUTHORS_GAMES_SLIPS = {("MCE-εG/R", 0.2): -16.06, ("UCT_W-FG", 0.3): -30.355}
