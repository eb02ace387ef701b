"""The Durak chapter's tables, figures and sentences, one function each, from the rows that
``chapter.results`` loads and the measures of :mod:`.analysis` (the notebook only calls them and
shows what they return).

The article measures nothing, so no figure carries a paper's point; every sentence here is ours.
A sentence whose experiment was not computed in a run is empty (:func:`missing_note` says once
what is missing and which command computes it). Differences of fractions are in percentage
points, written as points.
"""

from __future__ import annotations

import json
import textwrap

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..book import plots
from ..core.numbers import and_list, ci_range, number, pct, points, points_range, range_separator
from . import analysis, chapter, paper
from .evaluation import evaluate

#: What the "What we found" box says of a finding whose experiment this run did not compute.
NOT_COMPUTED = "not computed in this run."
SUIT_SIGNS = {"D": "♦", "S": "♠", "C": "♣", "H": "♥"}
#: The evaluator's inputs at the start of a two-player 52-card game (talon of 40, six each) and
#: at its end (talon empty), where the article places its example hands.
START = dict(trump=paper.ARTICLE_TRUMP, cards_remaining=52 - 12, player_hands=[6, 6], deck=52)
END = dict(trump=paper.ARTICLE_TRUMP, cards_remaining=0, player_hands=[6, 6], deck=52)
#: The forms of the evaluator the example table shows (column -> keyword arguments).
FORMS = {"as coded": {}, "article's table": {"scale": "article"},
         "bonus x100": {"rank_bonus": "x100"}, "true division": {"division": "true"}}
DIAG_LABEL = {"EvalAI": "EvalAI (OpenFool's rules)", "EvalAI/lead-smallest": "lead smallest",
              "EvalAI/lead-nobonus": "lead without the rank-group bonus",
              "EvalAI/throw-always": "throw always (no threshold)",
              "EvalAI/throw-smallest": "throw in as SmallestAI",
              "EvalAI/beat-always": "beat always (no thresholds)",
              "EvalAI/defend-smallest": "defend as SmallestAI"}
RULE_SHORT = {"OpenFool": "OpenFool's rules", "attack limit 6 (5 before the first discard)":
              "limit 6 (5 first)", "every opponent throws in": "all throw in",
              "refill attacker first, defender last": "refill attacker first",
              "OpenFool + transfer (perevodnoy)": "+ transfer (standard check)",
              "OpenFool + transfer, OpenFool's check": "+ transfer (OpenFool's check)"}
CLAIM_GROUPS = {"article.": "The article's claims about hands",
                "ai.": "The evaluator AI against the baselines",
                "ablation.": "Ablations: each term removed or switched, against the full EvalAI"}
#: The experiments a reader may leave out of a rerun, as the text names them.
EXPERIMENT_WORDS = {"hands": "the hand values in self-play", "endgame": "the endgame hands",
                    "baselines": "EvalAI against the baselines", "ablations": "the ablations",
                    "rules": "the rule quirks", "diagnosis": "the diagnosis against SmallestAI",
                    "monte_carlo": "the Monte Carlo player"}


# ----------------------------------------------------------------------------- small formats


def _f_pp(x: float) -> str:
    """A difference of fractions in signed points, one decimal, no unit (the table says it)."""
    return points(x, unit=False)


def _f_pct(x: float) -> str:
    return f"{x * 100:.1f}"


def _two_line(v: float, lo: float, hi: float, fmt) -> str:
    """A table cell: the estimate and its 95 % interval in small type below it. Differences
    (signed) read "-1.9 to +0.3"; other intervals "52.1–60.3", or "to" beside a minus."""
    a, b = fmt(lo), fmt(hi)
    sep = " to " if fmt is _f_pp else range_separator(a, b)
    return f"{fmt(v)}<br><small>{a}{sep}{b}</small>"


def _cells(df: pd.DataFrame, value: str, fmt) -> list[str]:
    return [_two_line(v, a, b, fmt) for v, a, b in zip(df[value], df["lo"], df["hi"])]


def _wide(df: pd.DataFrame, index: str, columns: str, values: str, label: str) -> pd.DataFrame:
    tab = df.pivot(index=index, columns=columns, values=values)
    tab.columns = [label.format(c) for c in tab.columns]
    return tab


def _pct_cols(df: pd.DataFrame, *cols: str) -> pd.DataFrame:
    """``cols`` (fractions) and ``lo``/``hi`` as percent, for a figure's tidy data."""
    return df.assign(**{c: df[c] * 100 for c in cols})


# ----------------------------------------------------------------------------- rerun


def outcomes(rows: pd.DataFrame | None) -> pd.DataFrame | None:
    """:func:`analysis.outcomes` of a match experiment's rows (None when not computed)."""
    return None if rows is None or rows.empty else analysis.outcomes(rows)


def missing(res) -> list[str]:
    """The chapter's experiment groups without rows in this run."""
    return [g for g in chapter.EXPERIMENTS if res[g] is None]


def missing_note(groups) -> str:
    """One sentence: which experiments this run lacks and the command that computes them
    ("" when none is missing)."""
    groups = list(groups)
    if not groups:
        return ""
    words = [EXPERIMENT_WORDS[g] for g in groups]
    listed = and_list(words)
    return (f"This run did not compute {listed}, so the text leaves out what rests on "
            f"{'it' if len(words) == 1 else 'them'}; `gameai run durak -p experiments "
            f"{','.join(groups)}` computes {'it' if len(words) == 1 else 'them'}.")


def games(df: pd.DataFrame | None, planned: int, by=None) -> str:
    """Games per configuration as the text states it: the fewest measured (``by``: the game
    rows' configuration columns; None: :func:`analysis.outcomes` rows), or the number planned
    when the experiment is not computed in this run."""
    if df is None or df.empty:
        return f"{planned:,}"
    return f"{int((df['games'] if by is None else df.groupby(by).size()).min()):,}"


# ----------------------------------------------------------------------------- the examples


def examples_table() -> pd.DataFrame:
    """The article's three example hands valued by the evaluator in its forms at the end of a
    two-player 52-card game, and as coded at the start (the article's example, its Part 1)."""
    rows = []
    for name, hand in paper.ARTICLE_HANDS.items():
        row = {"hand (trump ♦)": "".join(SUIT_SIGNS.get(ch, ch) for ch in hand),
               "the article calls it": name.replace("_", " ")}
        row |= {col: evaluate(hand, **form, **END) for col, form in FORMS.items()}
        rows.append(row | {"as coded, start of game": evaluate(hand, **START)})
    return pd.DataFrame(rows)


def _same_gaps() -> bool:
    """Whether every form keeps the same gaps between the three six-card hands at the start
    and at the end with an opponent holding one to six cards (only the many-cards term sees the
    stage of the game, and it depends on the hand's size alone)."""
    contexts = [START] + [dict(END, player_hands=[6, k]) for k in range(1, 7)]

    def gaps(form, ctx):
        base = evaluate(paper.ARTICLE_HANDS["almost_perfect"], **form, **ctx)
        return tuple(evaluate(h, **form, **ctx) - base for h in paper.ARTICLE_HANDS.values())

    return all(len({gaps(f, ctx) for ctx in contexts}) == 1 for f in FORMS.values())


def examples_texts(ex: pd.DataFrame) -> dict[str, str]:
    """The sentences on the article's example hands (:func:`examples_table`), by glue key."""
    v = ex.set_index("the article calls it")["as coded"]
    same = _same_gaps()
    order = ("exactly the same as" if v["much better"] == v["very unsuccessful"] else
             "above" if v["much better"] > v["very unsuccessful"] else "below")
    shift = ex["as coded, start of game"] - ex["as coded"]
    s = int(shift.iloc[0])
    vu, mb = paper.ARTICLE_HANDS["very_unsuccessful"], paper.ARTICLE_HANDS["much_better"]
    only_cards = ["rank_bonus", "unbalanced", "many_cards", "trump_bonus"]
    card_loss = evaluate(vu, drop=only_cards, **END) - evaluate(mb, drop=only_cards, **END)
    penalty = {h: evaluate(h, drop=["unbalanced"], **END) - evaluate(h, **END) for h in (vu, mb)}
    gain = penalty[vu] - penalty[mb]
    return {
        "durak-examples": (
            "at the end of the game, where the article places them, the evaluator values the four "
            f"queens the article calls *almost perfect* lowest ({v['almost perfect']:,} against "
            f"{v['very unsuccessful']:,}), and the hand it calls *much better* {order} the *very "
            "unsuccessful* one it improves, in every form of the evaluator"
            + (", and at the start of the game alike." if same else ".")),
        "durak-examples-context": (
            "the gaps between the three hands are the same at the start of the game and at the end "
            "with an opponent holding one to six cards, in every form" if same else
            "the gaps between the three hands change with the stage of the game"),
        "durak-examples-shift": (
            f"{abs(s):,} hand-value points {'lower' if s > 0 else 'higher'} at the end than at "
            "the start" if shift.nunique() == 1 else "by different amounts"),
        "durak-swap": (
            f"gives up {card_loss:,} points of card value (J♠ → 10♣, 6♦ → 3♦) and gains "
            f"{gain:,} points of balance (its unbalanced-hand penalty drops from {penalty[vu]:,} to "
            f"{penalty[mb]:,})" + (": the two hands score the same" if card_loss == gain else "")),
    }


# ----------------------------------------------------------------------------- hand values


def rho_table(rc: pd.DataFrame) -> pd.DataFrame:
    """Players x deck: Spearman's rho of the initial hand value with the standing (95 % CI)."""
    tab = _wide(rc.assign(text=_cells(rc, "rho", lambda x: f"{x:.3f}")), "n_players", "deck",
                "text", "{} cards")
    return tab.rename_axis("players").reset_index()


def self_play_table(so: pd.DataFrame) -> pd.DataFrame:
    """Players x deck: EvalAI self-play's draws / games abandoned as endless."""
    so = so.assign(txt=[f"{pct(d)} / {pct(c, 2)}"
                        for d, c in zip(so["draw_rate"], so["capped_rate"])])
    return _wide(so, "n_players", "deck", "txt", "{} cards").rename_axis("players").reset_index()


def calibration_data(cal: pd.DataFrame) -> pd.DataFrame:
    """The calibration figure's points in tidy form: one row per (players, deck, decile) and the
    1/n line per panel."""
    pts = pd.DataFrame({"panel": cal["n_players"].map("{} players".format),
                        "series": cal["deck"].map("{} cards".format),
                        "initial hand value (decile)": cal["bin"],
                        "fool rate (%)": cal["fool"] * 100,
                        "ci_low": cal["lo"] * 100, "ci_high": cal["hi"] * 100, "n": cal["n"]})
    ns = sorted(cal["n_players"].unique())
    ref = pd.DataFrame({"panel": [f"{n} players" for n in ns], "series": "1/n (equal players)",
                        "fool rate (%)": [100 / n for n in ns]})
    return pd.concat([pts, ref], ignore_index=True)


def calibration_figure(cal: pd.DataFrame) -> plt.Figure:
    """The fool rate of a seat by the decile of its initial hand value, a panel per player
    count, a line per deck, with Wilson 95 % intervals; dashed: 1/n."""
    ns = sorted(cal["n_players"].unique())
    fig, axes = plt.subplots(2, 2, figsize=plots.STACKED, sharex=True, sharey=True)
    for ax, n in zip(axes.flat, ns):
        for d, g in cal[cal["n_players"] == n].groupby("deck"):
            ax.errorbar(g["bin"], g["fool"], yerr=[g["fool"] - g["lo"], g["hi"] - g["fool"]],
                        marker="o", ms=4, capsize=2, label=f"{d} cards")
        ax.axhline(1 / n, color="grey", ls="--", lw=1, label="1/n (equal players)")
        ax.set_title(f"{n} players")
        ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True))  # deciles are whole numbers
        plots.percent_axis(ax)
    for ax in axes.flat[len(ns):]:
        ax.axis("off")
    for ax in axes[1]:
        ax.set_xlabel("initial hand value (decile)")
    for ax in axes[:, 0]:
        ax.set_ylabel("fool rate")
    fig.tight_layout()
    # Below the panels, clear of the curves (inside a panel it hid the 24-card curve).
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3,
               frameon=False)
    return fig


def makeup_table(eff: pd.DataFrame) -> pd.DataFrame:
    """Per player count (and all): the fool rate with each make-up minus without, at equal
    value otherwise, in points (95 % CI)."""
    eff = eff.assign(txt=_cells(eff.rename(columns={"effect": "v"}), "v", _f_pp),
                     players=eff["n_players"].astype(str))
    tab = eff.pivot(index="players", columns="makeup", values="txt")
    tab = tab[["three", "pair", "unbalanced"]]
    tab.columns = ["3+ of one rank (vs ≤ 2)", "2+ of one rank (vs none)",
                   "3+ of one non-trump suit (vs ≤ 2)"]
    return tab.reset_index()


def hands_texts(rc: pd.DataFrame | None, so: pd.DataFrame | None,
                eff: pd.DataFrame | None) -> dict[str, str]:
    """The sentences on the hand-value experiment, by glue key ("" when not computed)."""
    if rc is None or rc.empty:
        return {"durak-rho": NOT_COMPUTED, "durak-makeup": NOT_COMPUTED, "durak-predict-text": ""}
    worst = so.loc[so["capped_rate"].idxmax()]
    two = rc[rc["n_players"] == 2]["rho"]
    top = rc.loc[rc["rho"].idxmax()]
    a = eff[eff["n_players"] == "all"].set_index("makeup")

    def effect(m, bold=False):
        b = "**" if bold else ""
        ci = points_range(a.loc[m, "lo"], a.loc[m, "hi"])
        return f"{b}{points(a.loc[m, 'effect'])}{b} ({ci})"

    return {
        "durak-rho": (
            f"Spearman's ρ between the initial hand value and the finishing standing is "
            f"**{rc['rho'].min():.2f}–{rc['rho'].max():.2f}** over the {len(rc)} deck sizes and "
            f"player counts (95 % interval above 0 in {int((rc['lo'] > 0).sum())} of {len(rc)}); "
            "the fifth of the hands with the lowest value (the figure splits them finer, into "
            f"tenths) is the fool {pct(rc['fool_low'].min())}–{pct(rc['fool_low'].max())} of the "
            f"time, the highest {pct(rc['fool_high'].min())}–{pct(rc['fool_high'].max())}."),
        "durak-makeup": (
            f"at equal value otherwise, three or more cards of one rank change the fool rate by "
            f"{effect('three', True)}, two or more cards of one rank by {effect('pair')}, three or "
            f"more cards of one "
            f"non-trump suit by {effect('unbalanced', True)}."),
        "durak-predict-text": (
            "The evaluator orders hands in the right direction "
            + ("everywhere" if (rc["lo"] > 0).all() else
               f"in {int((rc['lo'] > 0).sum())} of {len(rc)} configurations (95 % interval "
               "above 0)")
            + ", but weakly: with two players the initial hand explains little of who ends as the "
            "fool"
            + (f" (ρ {two.min():.2f}–{two.max():.2f})" if two.nunique() > 1 else
               f" (ρ {two.iloc[0]:.2f})" if len(two) else "")
            + ", and most where six cards are a larger part of the game "
            f"(ρ up to {top['rho']:.2f}, "
            f"{int(top['n_players'])} players with {int(top['deck'])} cards). EvalAI against "
            "itself also shows how often OpenFool's rules let a game run forever: "
            f"{pct(worst['capped_rate'], 1)} of the {int(worst['n_players'])}-player "
            f"{int(worst['deck'])}-card games were still going after 5,000 actions. In one we "
            "traced, two players holding a dozen cards each and a third with six pass the same "
            "cards round: the same three hands and the same attacker recur every six bouts, with "
            "one card left in the talon that nobody needs to draw, and deterministic players "
            "repeat that for ever. Such games are abandoned and left out of the correlations, "
            "never counted as anyone's result."),
    }


# ----------------------------------------------------------------------------- endgame


def endgame_data(by: pd.DataFrame) -> pd.DataFrame:
    """The endgame figure's points: one row per (players, cards in hand), hands seen >= 30."""
    by = by[by["n"] >= 30]
    return pd.DataFrame({"series": by["n_players"].map("{} players".format),
                         "cards in hand when the talon runs out": by["size"],
                         "fool rate (%)": by["fool"] * 100, "ci_low": by["lo"] * 100,
                         "ci_high": by["hi"] * 100, "n": by["n"]}).reset_index(drop=True)


def endgame_figure(by: pd.DataFrame) -> plt.Figure:
    """The fool rate by the cards in hand at the first bout without a talon, a line per player
    count, with Wilson 95 % intervals (sizes seen fewer than 30 times left out)."""
    fig, ax = plt.subplots(figsize=plots.SINGLE)
    for n, g in by[by["n"] >= 30].groupby("n_players"):
        ax.errorbar(g["size"], g["fool"], yerr=[g["fool"] - g["lo"], g["hi"] - g["fool"]],
                    marker="o", ms=4, capsize=2, label=f"{n} players")
    ax.set(xlabel="cards in hand when the talon runs out (12: 12 or more)", ylabel="fool rate")
    ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True))  # whole cards, at any width
    plots.percent_axis(ax)
    ax.legend(fontsize=10)
    return fig


def endgame_table(eff: pd.DataFrame) -> pd.DataFrame:
    """Per player count: the fool rate with more than six cards when the talon runs out against
    at most six, and the difference in points (95 % CI)."""
    return pd.DataFrame({
        "players": eff["n_players"], "games": eff["games"], "hands > 6 cards": eff["many"].map(pct),
        "fool rate, > 6 cards": eff["fool_many"].map(pct),
        "fool rate, ≤ 6": eff["fool_few"].map(pct),
        "difference, points (95 % CI)": [f"{_f_pp(e)} ({points_range(a, b, unit=False)})"
                                         for e, a, b in zip(eff["effect"], eff["lo"], eff["hi"])]})


AUC_SCORES = ["hand value, Int division (as coded)", "hand value, true division (article)",
              "fewer cards"]


def auc_table(au: pd.DataFrame) -> pd.DataFrame:
    """Players x score: the AUC with which each score picks the players who escape (95 % CI)."""
    au = au.assign(txt=[f"{a:.3f} ({lo:.3f}–{hi:.3f})"
                        for a, lo, hi in zip(au["auc"], au["lo"], au["hi"])])
    tab = au.pivot(index="n_players", columns="score", values="txt")[AUC_SCORES]
    return tab.rename_axis("players").reset_index()


def endgame_texts(rows: pd.DataFrame | None, eff: pd.DataFrame | None,
                  au: pd.DataFrame | None) -> dict[str, str]:
    """The sentences on the endgame experiment ("" when not computed)."""
    if rows is None or eff is None or eff.empty:
        return {"durak-endgame": NOT_COMPUTED, "durak-endgame-missing": ""}
    # A game with no bout on an empty talon (bout -1) has no endgame hands. Nobody can be out
    # while the talon lasts, so such a game without a fool was abandoned as endless.
    lost = rows[rows["bout"] < 0].groupby("n_players").agg(
        games=("bout", "size"), no_fool=("fool", lambda f: int((f < 0).sum())))
    out = []
    for n, r in lost.iterrows():
        total = int((rows["n_players"] == n).sum())
        why = ("all of them abandoned as endless" if r["no_fool"] == r["games"] else
               f"{int(r['no_fool']):,} of them abandoned as endless")
        out.append(f"Of the {total:,} {int(n)}-player games, {int(r['games']):,} never reached a "
                   f"bout with an empty talon ({why}), so the table below counts "
                   f"{total - int(r['games']):,} games for {int(n)} players.")

    def mean_auc(word):
        return f"{au[au['score'].str.contains(word)]['auc'].mean():.2f}"

    return {
        "durak-endgame-missing": " ".join(out) or "Every game reached a bout with an empty talon.",
        "durak-endgame": (
            "a player holding more than six cards when the talon runs out is the fool "
            f"**{points_range(eff['effect'].min(), eff['effect'].max(), decimals=0)}** more often "
            "than one with six or fewer (2–5 players). There the evaluator as coded picks the "
            f"players who escape with an AUC of {mean_auc('Int')}, the bare card count with "
            f"{mean_auc('fewer')}; true division, the form the article describes, gives "
            f"{mean_auc('true')} (means over player counts)."),
    }


# ----------------------------------------------------------------------------- matches


def _errorbars(ax, x, t: pd.DataFrame, value: str = "share", **style):
    return ax.errorbar(x, t[value], yerr=[t[value] - t[f"{value}_lo"], t[f"{value}_hi"] - t[value]],
                capsize=2, **style)


def baselines_data(t: pd.DataFrame) -> pd.DataFrame:
    """The baselines figure's points: one row per (opponents, deck, players), and 1/n."""
    pts = pd.DataFrame({"panel": "EvalAI vs " + t["vs"], "series": t["deck"].map("{} cards".format),
                        "players": t["n_players"],
                        "EvalAI's share of the fool (%)": t["share"] * 100,
                        "ci_low": t["share_lo"] * 100, "ci_high": t["share_hi"] * 100,
                        "n": t["decided"]})
    ref = t[["vs", "n_players"]].drop_duplicates()
    ref = pd.DataFrame({"panel": "EvalAI vs " + ref["vs"], "series": "1/n (equal players)",
                        "players": ref["n_players"],
                        "EvalAI's share of the fool (%)": 100 / ref["n_players"]})
    return pd.concat([pts, ref], ignore_index=True)


def baselines_figure(t: pd.DataFrame) -> plt.Figure:
    """EvalAI's share of the fool against n - 1 RandomAI (top) and SmallestAI (bottom), per
    player count and deck, with Wilson 95 % intervals; dashed: 1/n."""
    fig, axes = plt.subplots(2, 1, figsize=plots.STACKED, sharex=True)
    for ax, vs in zip(axes, chapter.BASELINES):
        sub = t[t["vs"] == vs]
        for k, (d, g) in enumerate(sub.groupby("deck")):
            _errorbars(ax, g["n_players"] + (k - 1.5) * 0.08, g, marker="o", ms=4,
                       label=f"{d} cards")
        ns = sorted(sub["n_players"].unique())
        ax.plot(ns, [1 / n for n in ns], color="grey", ls="--", lw=1, label="1/n (equal players)")
        ax.set(title=f"EvalAI vs {vs}", ylabel="share of the fool")  # EvalAI's: the title says so
        plots.percent_axis(ax)
    axes[0].legend(fontsize=9, ncol=2)
    axes[1].set(xlabel="players", xticks=sorted(t["n_players"].unique()))
    fig.tight_layout()
    return fig


def baselines_table(t: pd.DataFrame, what: str) -> pd.DataFrame:
    """Opponents x players x deck: EvalAI's share of the fool in % (``what="share"``) or its
    mean finishing place (``"place"``), with 95 % intervals."""
    fmt = _f_pct if what == "share" else (lambda x: f"{x:.2f}")
    cells = t.assign(txt=[_two_line(v, a, b, fmt) for v, a, b in
                          zip(t[what], t[f"{what}_lo"], t[f"{what}_hi"])])
    tab = _wide(cells, ["vs", "n_players"], "deck", "txt", "{} cards")
    return tab.reset_index().rename(columns={"vs": "opponents", "n_players": "players"})


def _where(d: pd.DataFrame) -> str:
    return "; ".join(f"{int(n)} players, " + ", ".join(str(int(x)) for x in sorted(g["deck"]))
                     + " cards" for n, g in d.groupby("n_players"))


def baselines_texts(t: pd.DataFrame | None) -> dict[str, str]:
    """The sentences on EvalAI against the baselines ("" when not computed)."""
    if t is None or t.empty:
        return {"durak-baselines": NOT_COMPUTED, "durak-baselines-text": ""}
    sm = t[(t["vs"] == "SmallestAI") & (t["n_players"] >= 3)]
    below, above = sm[sm["share_hi"] < sm["null"]], sm[sm["share_lo"] > sm["null"]]
    many = (f"its share of the fool is below *1/n* (95 % interval) in {len(below)} of {len(sm)} "
            "configurations" + (f" ({_where(below)})" if len(below) else "")
            + f", above it — the fool *more* often than an equal player — in {len(above)}"
            + (f" ({_where(above)})" if len(above) else "")
            + (f", and not measurably different in the other {len(sm) - len(below) - len(above)}"
               if len(sm) > len(below) + len(above) else ""))
    two = t[(t["n_players"] == 2) & (t["deck"] == 36)].set_index("vs")
    share = {vs: t.loc[t["vs"] == vs, "share"] for vs in chapter.BASELINES}
    return {
        "durak-baselines": (
            f"EvalAI's share of the fool is **{pct(share['RandomAI'].min())}–"
            f"{pct(share['RandomAI'].max())}** against random players and "
            f"**{pct(share['SmallestAI'].min())}–{pct(share['SmallestAI'].max())}** against "
            "smallest-card players (an equal player: 1/n = 20–50 %)"
            + (f"; two players, 36 cards: it wins {pct(1 - two.loc['RandomAI', 'share'])} of "
               f"decided games against RandomAI and {pct(1 - two.loc['SmallestAI', 'share'])} "
               "against SmallestAI" if len(two) == 2 else "")
            + f". Draws: {pct(t['draw_rate'].min())}–{pct(t['draw_rate'].max())} of games."),
        "durak-baselines-text": (
            "Against random players EvalAI is almost never the fool. Against SmallestAI — a "
            "player that sheds its smallest card and always beats when it can — it wins clearly "
            "only with two players, the more clearly the larger the deck"
            + (f"; with three to five players {many}." if len(sm) else ".")
            + (" Which of EvalAI's decisions costs it is measured below, in our diagnosis."
               if len(above) else "")),
    }


def pooled(t: pd.DataFrame, by: str, order) -> pd.DataFrame:
    """Per ``by`` value in ``order`` and player count: :func:`analysis.pooled_excess` (the mean
    over decks of the share of the fool minus 1/n, 95 % CI, games)."""
    rows = [dict(zip((by, "n_players", "excess", "lo", "hi", "games"),
                     (a, n, *analysis.pooled_excess(t[(t[by] == a) & (t["n_players"] == n)]))))
            for a in order for n in sorted(t["n_players"].unique())]
    return pd.DataFrame(rows)


def excess_data(p: pd.DataFrame, by: str, labels, x: str, first: str) -> pd.DataFrame:
    """A dot plot's points (:func:`excess_figure`): one row per (row label, player count), the
    row label in column ``first``, the difference in points in column ``x``."""
    return pd.DataFrame({"series": p["n_players"].map("{} players".format),
                         first: p[by].map(labels),
                         x: p["excess"] * 100, "ci_low": p["lo"] * 100, "ci_high": p["hi"] * 100,
                         "n": p["games"]})


def excess_figure(p: pd.DataFrame, by: str, labels, xlabel: str) -> plt.Figure:
    """Share of the fool minus 1/n in points (mean over decks, 95 % CI), a row per ``by`` value
    (labelled by ``labels``), a dot per player count."""
    order = list(dict.fromkeys(p[by]))
    ns = sorted(p["n_players"].unique())
    # 5.6 in wide, the labels broken into lines of about 20 characters and the legend below the
    # panel: at the book's font sizes a phone's column then shows the text at 9 px or more.
    fig, ax = plt.subplots(figsize=(5.6, 0.6 * len(order) + 1.6))
    for k, n in enumerate(ns):
        g = p[p["n_players"] == n].set_index(by).loc[order]
        y = np.arange(len(order)) + (k - (len(ns) - 1) / 2) * (0.18 if len(ns) > 2 else 0.25)
        ax.errorbar(g["excess"] * 100, y, xerr=[(g["excess"] - g["lo"]) * 100,
                                                (g["hi"] - g["excess"]) * 100],
                    fmt="o", ms=4, capsize=2, label=f"{n} players")
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(np.arange(len(order)), [textwrap.fill(labels[a], 20) for a in order])
    ax.invert_yaxis()
    ax.set_xlabel(textwrap.fill(xlabel, 40))
    fig.tight_layout()
    handles, names = ax.get_legend_handles_labels()
    fig.legend(handles, names, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=len(ns),
               frameon=False, handletextpad=0.3, columnspacing=1.0)
    return fig


def excess_table(p: pd.DataFrame, by: str, labels, first: str) -> pd.DataFrame:
    """Row label x player count: share of the fool minus 1/n in points (95 % CI)."""
    order = list(dict.fromkeys(p[by]))
    tab = _wide(p.assign(txt=_cells(p, "excess", _f_pp)), by, "n_players", "txt", "{} players")
    tab = tab.loc[order]
    tab.insert(0, first, [labels[a] for a in order])
    return tab.reset_index(drop=True)


# ----------------------------------------------------------------------------- diagnosis


def leads_table(ld_rows: pd.DataFrame) -> pd.DataFrame:
    """Per player count: EvalAI's opening leads against SmallestAI beside SmallestAI's card."""
    cols = ["leads", "differ", "group", "higher", "hv_smallest", "gap"]
    ld = ld_rows.groupby("n_players")[cols].sum()
    return pd.DataFrame({"players": ld.index, "opening leads": ld["leads"],
                         "unlike SmallestAI's": (ld["differ"] / ld["leads"]).map(pct),
                         "of those: from 2+ of a rank": (ld["group"] / ld["differ"]).map(pct),
                         "of a higher rank": (ld["higher"] / ld["differ"]).map(pct),
                         "HV alone leads the smallest": (ld["hv_smallest"] / ld["differ"]).map(pct),
                         "mean rank gap": (ld["gap"] / ld["differ"]).map(lambda v: f"{v:.1f}")})


def diagnosis_pooled(t: pd.DataFrame) -> pd.DataFrame:
    """:func:`pooled` of the diagnosis' :func:`outcomes`, in :data:`chapter.DIAGNOSIS`'s order."""
    return pooled(t, "agent", [a for a in chapter.DIAGNOSIS if a in set(t["agent"])])


DIAG_X = "share of the fool − 1/n against SmallestAI (points)"


def diagnosis_figure(p: pd.DataFrame) -> plt.Figure:
    """Our diagnosis: EvalAI and each variant with one decision from SmallestAI, against n - 1
    SmallestAI, share of the fool minus 1/n (mean over decks, 95 % CI)."""
    return excess_figure(p, "agent", DIAG_LABEL, DIAG_X)


def diagnosis_data(p: pd.DataFrame) -> pd.DataFrame:
    return excess_data(p, "agent", DIAG_LABEL, DIAG_X, "EvalAI with")


def diagnosis_table(p: pd.DataFrame) -> pd.DataFrame:
    return excess_table(p, "agent", DIAG_LABEL, "EvalAI with")


def diagnosis_texts(p: pd.DataFrame | None, ld_rows: pd.DataFrame | None) -> dict[str, str]:
    """The sentences on our diagnosis ("" when not computed)."""
    out = {"durak-diagnosis": NOT_COMPUTED, "durak-leads": "", "durak-diagnosis-text": ""}
    if ld_rows is not None and not ld_rows.empty:
        a = ld_rows[["leads", "differ", "group", "higher", "hv_smallest", "gap"]].sum()
        out["durak-leads"] = (
            f"{pct(a['differ'] / a['leads'])} of its opening leads against SmallestAI differ from "
            f"the smallest card; of those, {pct(a['group'] / a['differ'])} come from a rank it "
            f"holds two or more times and {pct(a['higher'] / a['differ'])} are of a higher rank "
            f"(by {a['gap'] / a['differ']:.1f} ranks on average), and in "
            f"{pct(a['hv_smallest'] / a['differ'])} the hand value alone would have led the "
            "smallest card.")
    needed = {"EvalAI", "EvalAI/lead-smallest", "EvalAI/lead-nobonus", "EvalAI/throw-always",
              "EvalAI/beat-always"}
    if p is None or p.empty or not needed <= set(p["agent"]):
        return out
    ex = p.set_index(["agent", "n_players"])
    ns = sorted(p["n_players"].unique())
    many = [n for n in ns if n >= 3] or ns

    def span(agent):
        v = [ex.loc[(agent, n), "excess"] for n in many]
        return points_range(min(v), max(v)) if len(v) > 1 else points(v[0])

    who = f"{min(many)}–{max(many)} players" if len(many) > 1 else f"{many[0]} players"
    out["durak-diagnosis"] = (
        f"it is the opening attack. With {who} EvalAI's share of the fool against SmallestAI "
        f"is, over those player counts, **{span('EvalAI')}** from 1/n; leading the smallest "
        f"card instead makes it **{span('EvalAI/lead-smallest')}**, and so does leading by the hand value alone, without "
        f"OpenFool's rank-group bonus ({span('EvalAI/lead-nobonus')}), which makes EvalAI lead "
        "high cards from pairs and triples. The thresholds are not the cause: without the "
        f"throw-in threshold EvalAI does worse ({span('EvalAI/throw-always')}), without the "
        f"defence thresholds about the same ({span('EvalAI/beat-always')}).")
    out["durak-diagnosis-text"] = (
        "The cost is in the **opening attack**: either change — the smallest card, or the hand "
        "value without the bonus — turns EvalAI from no better than SmallestAI with three to five "
        "players (worse on the smaller decks) into the better player at every player count, "
        "averaged over the decks. The thresholds, by contrast, earn their keep or do no harm: "
        "without the throw-in threshold EvalAI throws in every card it can and is the fool "
        "clearly more often; without the defence thresholds it loses much of its two-player "
        "edge, and with three to five players it does about the same. Why leading high from a "
        "group loses against SmallestAI we did not measure further; a plausible reading is that "
        "SmallestAI beats every card it can, so a high lead is answered at once, often with a "
        "trump, while the leader's low cards stay in hand.")
    return out


# ----------------------------------------------------------------------------- ablations


def variant_words() -> dict[str, str]:
    """Ablation agent -> what it changes, in words."""
    return {v: analysis.ABLATION_WHAT[c] for c, v in paper.ABLATIONS.items()}


def ablations_pooled(t: pd.DataFrame) -> pd.DataFrame:
    """:func:`pooled` of the ablations' :func:`outcomes`, in :data:`chapter.VARIANTS`'s order."""
    return pooled(t, "agent", [v for v in chapter.VARIANTS if v in set(t["agent"])])


ABL_X = "variant's share of the fool − 1/n (points)"


def ablations_figure(p: pd.DataFrame) -> plt.Figure:
    """Each EvalAI variant against n - 1 full EvalAI: its share of the fool minus 1/n (mean over
    decks, 95 % CI), a dot per player count."""
    return excess_figure(p, "agent", variant_words(), ABL_X)


def ablations_data(p: pd.DataFrame) -> pd.DataFrame:
    return excess_data(p, "agent", variant_words(), ABL_X, "change")


def ablations_table(p: pd.DataFrame) -> pd.DataFrame:
    return excess_table(p, "agent", variant_words(), "change")


def _per_n(t: pd.DataFrame, v: str) -> str:
    return "; ".join(f"{n} players: {points(m)}, 95 % CI {points_range(lo, hi)}"
                     for n, m, lo, hi in analysis.ablation_by_players(t[t["agent"] == v]))


def _ablation_groups(t: pd.DataFrame) -> list[str]:
    """Each variant's result in words, grouped by what it shows (a mean over player counts can
    hide two measurable effects of opposite sign; an interval that only just excludes 0 may not
    stand Holm's correction for all the ablations, as the claims' notes say)."""
    what = variant_words()
    survives = {paper.ABLATIONS[c]: f[4] for c, f in analysis.ablation_family(t).items()}
    groups = {k: [] for k in ("worse", "better", "mixed", "marginal", "same")}
    for v in [v for v in chapter.VARIANTS if v in set(t["agent"])]:
        m, lo, hi, _ = analysis.pooled_excess(t[t["agent"] == v])
        ns = analysis.ablation_by_players(t[t["agent"] == v])
        if any(a > 0 for _, _, a, _ in ns) and any(b < 0 for _, _, _, b in ns):
            groups["mixed"].append(f"{what[v]} ({_per_n(t, v)})")
        elif (lo > 0 or hi < 0) and not survives.get(v, True):
            groups["marginal"].append(f"{what[v]} ({points(m)})")
        else:
            key = "worse" if lo > 0 else "better" if hi < 0 else "same"
            groups[key].append(f"{what[v]} ({points(m)})")
    lead = {"worse": "EvalAI loses more often with ", "better": "It loses less often with ",
            "mixed": "The sign depends on the player count with ",
            "marginal": "Only just measurable, and not after a correction for testing all the "
                        "ablations, with ", "same": "No measurable difference with "}
    return [lead[k] + "; ".join(v) for k, v in groups.items() if v]


def _unbalanced(t: pd.DataFrame) -> str:
    ub = "EvalAI-nounbalanced"
    ns = analysis.ablation_by_players(t[t["agent"] == ub])
    _, lo, hi, _ = analysis.pooled_excess(t[t["agent"] == ub])
    up = [str(n) for n, _, a, _ in ns if a > 0]
    down = [str(n) for n, _, _, b in ns if b < 0]
    verdict = (f"hurts EvalAI with {' and '.join(up)} players and helps it with "
               f"{' and '.join(down)}"
               if up and down else f"hurts EvalAI with {' and '.join(up)} players" if up else
               f"helps EvalAI with {' and '.join(down)} players" if down else
               "makes no measurable difference with any player count")
    return (f"In play, removing the unbalanced-hand penalty {verdict} ({_per_n(t, ub)})"
            + ("; averaged over both the difference is not measurable"
               if lo <= 0 <= hi and (up or down) else "")
            + ".")


#: The ablations paragraph: each sentence with the variants it rests on (it is left out of a
#: run that lacks any of them).
ABLATION_SENTENCES = (
    (("EvalAI-notrumpbonus", "EvalAI-nocardvalues"),
     "The trump bonus and the card values carry the evaluator: without either, EvalAI is the fool "
     "far more often."),
    (("EvalAI-nomanycards",),
     "The many-cards term *as coded* matters as well, almost entirely in two-player games: its "
     "integer division makes it +150 for nearly every hand, but it becomes a large penalty exactly "
     "when a player holds at least as many cards as all other hands plus the talon (the cards in "
     "play; ratio 1: −450) or when those are all empty (ratio 10) — two-player endgames, or the "
     "\"hand + table\" a defender scores before taking."),
    (("EvalAI-truediv", "EvalAI-x100", "EvalAI-article"),
     "The article's intended forms do not help: with true division, with the same-rank bonus × "
     "100 or with the article's fixed card table EvalAI is, if anything, slightly weaker."),
    (("EvalAI-norankbonus",),
     "Removing the same-rank bonus as coded (a few hand-value points) costs little."),
)


def ablations_texts(t: pd.DataFrame | None, claims: pd.DataFrame) -> dict[str, str]:
    """The sentences on the ablations ("" when not computed; a sentence on variants this run
    did not play is left out)."""
    if t is None or t.empty:
        return {"durak-ablations": NOT_COMPUTED, "durak-ablations-text": ""}
    have = set(t["agent"])
    judged = claims[claims["claim"].str.startswith("ablation.") & (claims["verdict"] != "pending")]
    text = [s for needs, s in ABLATION_SENTENCES if set(needs) <= have]
    if "EvalAI-nounbalanced" in have:
        text.append(_unbalanced(t))
    return {
        "durak-ablations": (
            ". ".join(_ablation_groups(t)) + " (share of the fool against full EvalAI, minus 1/n; "
            f"{int((judged['verdict'] == 'holds').sum())} of {len(judged)} ablation claims hold)."),
        "durak-ablations-text": " ".join(text),
    }


# ----------------------------------------------------------------------------- rules


def rules_table(t: pd.DataFrame) -> pd.DataFrame:
    """Rule setting x player count (:func:`outcomes`): EvalAI's share of the fool against
    SmallestAI in % (95 % CI), with draws (%) and abandoned games per player count."""
    t = t.assign(order=t["rules"].map({k: i for i, k in enumerate(chapter.RULE_SETS)}))
    t = t.sort_values(["order", "n_players"])
    t["txt"] = [_two_line(v, a, b, _f_pct)
                for v, a, b in zip(t["share"], t["share_lo"], t["share_hi"])]
    tab = _wide(t, "rules", "n_players", "txt", "{} players").loc[list(dict.fromkeys(t["rules"]))]
    tab["draws"] = t.groupby("rules")["draw_rate"].apply(lambda d: " / ".join(_f_pct(x) for x in d))
    tab["abandoned"] = t.groupby("rules")["capped"].apply(
        lambda d: " / ".join(str(int(x)) for x in d))
    tab.insert(0, "rules", [RULE_SHORT.get(r, r) for r in tab.index])
    return tab.reset_index(drop=True)


def rules_text(t: pd.DataFrame | None) -> str:
    """The paragraph on OpenFool's rule quirks ("" when not computed)."""
    if t is None or t.empty:
        return ""
    tr = t[t["rules"].str.contains("transfer")].set_index(["rules", "n_players"])["share"]
    std, ofc = "OpenFool + transfer (perevodnoy)", "OpenFool + transfer, OpenFool's check"
    checks = "; ".join(f"{n} players {pct(tr[(std, n)])} with the standard check, "
                       f"{pct(tr[(ofc, n)])} with OpenFool's" for n in sorted(t["n_players"].unique())
                       if (std, n) in tr.index and (ofc, n) in tr.index)
    return ("Under the standard rules EvalAI stands against SmallestAI about as it does under "
            "OpenFool's: no single quirk moves its share of the fool by more than a point or two; "
            "transfer, OpenFool's option, helps it with four players, with either legality check"
            + (f" (EvalAI's share of the fool: {checks})." if checks else "."))


# ----------------------------------------------------------------------------- Monte Carlo


def mc_data(t: pd.DataFrame) -> pd.DataFrame:
    """The Monte Carlo figure's points: one row per (player, players, budget), and 1/n."""
    t = t.sort_values(["agent", "n_players", "budget"])
    pts = pd.DataFrame({"series": t["agent"] + ", " + t["n_players"].map("{} players".format),
                        "sampled deals per decision": t["budget"].astype(int),
                        "MC-AI's share of the fool (%)": t["share"] * 100,
                        "ci_low": t["share_lo"] * 100, "ci_high": t["share_hi"] * 100,
                        "n": t["decided"]})
    ns = sorted(t["n_players"].unique())
    ref = pd.DataFrame({"series": [f"1/n, {n} players" for n in ns],
                        "MC-AI's share of the fool (%)": [100 / n for n in ns]})
    return pd.concat([pts, ref], ignore_index=True)


def mc_figure(t: pd.DataFrame) -> plt.Figure:
    """MC-AI's share of the fool against n - 1 EvalAI by budget, with Wilson 95 % intervals;
    dashed: 1/n (beyond the article)."""
    t = t.sort_values(["agent", "n_players", "budget"])
    fig, ax = plt.subplots(figsize=plots.SINGLE)
    for (a, n), g in t.groupby(["agent", "n_players"]):
        h = _errorbars(ax, g["budget"], g, marker="o", label=f"{a}, {n} players")
        # the equal-players line in its series' colour, named once per player count
        drawn = {line.get_label() for line in ax.get_lines()}
        ax.axhline(1 / n, color=h[0].get_color(), ls="--", lw=1,
                   label=f"1/n = 1/{n}" if f"1/n = 1/{n}" not in drawn else "_nolegend_")
    budgets = sorted(t["budget"].unique())
    ax.set(xscale="log", xlabel="budget (sampled deals per decision)",
           ylabel="MC-AI's share of the fool")
    ax.xaxis.set_minor_locator(plt.NullLocator())
    ax.set_xticks(budgets, [str(int(b)) for b in budgets])
    plots.percent_axis(ax)
    ax.legend(fontsize=10)
    return fig


def mc_table(t: pd.DataFrame) -> pd.DataFrame:
    """MC-AI against n - 1 EvalAI per player count and budget: games, share of the fool (95 %
    CI), 1/n, mean place and draws."""
    t = t.sort_values(["agent", "n_players", "budget"])
    return pd.DataFrame({
        "player": t["agent"], "players": t["n_players"], "budget": t["budget"].astype(int),
        "games": t["games"], "share of the fool": t["share"].map(pct),
        "95 % CI": [ci_range(a, b) for a, b in zip(t["share_lo"], t["share_hi"])],
        "1/n": t["null"].map(pct), "mean place": t["place"].map(lambda v: number(v, 2)),
        "draws": t["draw_rate"].map(pct)})


def mc_texts(t: pd.DataFrame | None, planned: int) -> dict[str, str]:
    """The Monte Carlo sentences: games per budget, and the finding ("" when not computed)."""
    if t is None or t.empty:
        return {"durak-games-mc": f"{planned:,}", "durak-mc": NOT_COMPUTED}
    lo, hi = int(t["games"].min()), int(t["games"].max())
    two = t[t["n_players"] == 2]
    best = two.loc[two["budget"].idxmax()] if not two.empty else t.loc[t["budget"].idxmax()]
    return {
        "durak-games-mc": (f"{lo:,}" if lo == hi and lo >= planned else
                           f"{lo:,}–{hi:,} (of {planned:,}: the rest is still to compute, "
                           "`gameai run durak`)"),
        "durak-mc": (
            "a determinised Monte Carlo player with EvalAI playouts is the fool in "
            f"**{pct(best['share'])}** ({ci_range(best['share_lo'], best['share_hi'])}) of decided "
            f"{int(best['n_players'])}-player games against EvalAI at {int(best['budget'])} samples "
            f"per decision (1/n = {pct(best['null'])}); {lo:,} games per budget."),
    }


# ----------------------------------------------------------------------------- compute, claims


def compute_table(res) -> pd.DataFrame:
    """Per experiment: configurations, games, games abandoned as endless (blank where the rows
    do not record it) and the recorded wall time."""
    rows = []
    for key, exp in res.experiments.items():
        path = res.data_dir / "durak" / f"{exp.name}.json"
        m = json.loads(path.read_text()) if path.exists() else {}
        df = res[key]
        played = 0 if df is None else int(df["games"].sum()) if "games" in df.columns else len(df)
        lost = int(df["capped"].sum()) if df is not None and "capped" in df.columns else None
        rows.append({"experiment": exp.name.replace("_", " "), "configurations": len(exp.configs),
                     "games": played, "abandoned": lost,
                     "wall time (min)": round(m.get("wall_time_s", 0.0) / 60, 1),
                     "what": exp.description})
    out = pd.DataFrame(rows, columns=["experiment", "configurations", "games", "abandoned",
                                      "wall time (min)", "what"])
    out["abandoned"] = out["abandoned"].astype("Float64")
    return out


def capped_text(compute: pd.DataFrame) -> str:
    """How many of the games that record it were abandoned as endless."""
    rec = compute[compute["abandoned"].notna()]
    if rec.empty or rec["games"].sum() == 0:
        return NOT_COMPUTED
    capped, recorded = int(rec["abandoned"].sum()), int(rec["games"].sum())
    return (f"{capped:,} of the {recorded:,} games that record it ({pct(capped / recorded, 3)}) "
            "were abandoned as endless after 5,000 actions. They are left out of every share of "
            "the fool, mean place and correlation, counted per experiment at the end of the "
            "chapter and per configuration in the self-play and rule tables.")


VERDICT_WORDS = {"reproduced": "reproduced", "differs": "differ", "holds": "hold", "fails": "fail"}


def _verb(n: int, verdict: str) -> str:
    """``VERDICT_WORDS[verdict]`` for ``n`` claims: "1 holds", "2 hold"."""
    return verdict if n == 1 else VERDICT_WORDS[verdict]


def verdicts_text(claims: pd.DataFrame) -> str:
    """The claims' verdicts counted: "**10** hold, **4** fail of 14" (and how many are not
    computed in this run)."""
    counts = claims["verdict"].value_counts()
    judged = [f"**{int(counts[v])}** {_verb(int(counts[v]), v)}" for v in VERDICT_WORDS
              if counts.get(v, 0)]
    text = ", ".join(judged) + f" of {int(counts.reindex(list(VERDICT_WORDS)).fillna(0).sum())}"
    if counts.get("pending", 0):
        text += f"; {int(counts['pending'])} more not computed in this run"
    return text + "."


#: Why a claim fails, in the words of :func:`one_line` (a fixed clause chosen by the claim).
REASONS = {
    "ai.vs_smallest": "the evaluator-driven player does not beat a player that always leads its "
                      "smallest card in every configuration",
    "ablation.unbalanced": "removing the unbalanced-hand penalty does not weaken the player on "
                           "average",
    "ablation.true_division": "the forms the article's prose suggests do not play better than "
                              "OpenFool's code",
    "ablation.bonus_x100": "the forms the article's prose suggests do not play better than "
                           "OpenFool's code",
}


def _reason(cid: str, note: str) -> str:
    if cid == "ai.vs_smallest" and "our diagnosis" in note:
        return REASONS[cid] + ", which our diagnosis traces to OpenFool's opening-attack bonus"
    if cid == "ablation.unbalanced" and "mixed" in note:
        return ("removing the unbalanced-hand penalty helps the player with some player counts "
                "and hurts it with others")
    if cid in REASONS:
        return REASONS[cid]
    what = analysis.DESCRIPTIONS.get(cid) or analysis.ABLATION_TEXT.get(cid, cid)
    return f"the claim that {what} fails"


def one_line(claims: pd.DataFrame) -> str:
    """The chapter's verdict in one sentence, from its claims (``gameai.core.claims.read_claims``):
    how many of the article's claims, stated or implied, hold when measured, and why the others
    fail. Plain text, no Markdown."""
    verdict = claims["verdict"]
    judged = claims[verdict.isin(list(VERDICT_WORDS))]
    good = int(judged["verdict"].isin(["holds", "reproduced"]).sum())
    bad = judged[judged["verdict"].isin(["fails", "differs"])]
    pending = int((verdict == "pending").sum())
    if judged.empty:
        return (f"The article measures nothing, and none of the {len(claims)} claims it makes or "
                "implies is measured in this run.")
    text = (f"The article measures nothing; of the {len(judged)} claims it makes or implies that "
            f"we measured, {good} {_verb(good, 'holds')}")
    if len(bad):
        reasons = list(dict.fromkeys(_reason(c, str(n))
                                     for c, n in zip(bad["claim"], bad["note"].fillna(""))))
        text += f" and {len(bad)} {_verb(len(bad), 'fails')}: " + "; ".join(reasons)
    if pending:
        text += f" ({pending} more not measured in this run)"
    return text + "."
