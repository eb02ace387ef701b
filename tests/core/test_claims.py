import math
from dataclasses import replace

import pandas as pd
import pytest

from gameai.core.claims import (
    COLUMNS,
    Claim,
    expected_by_chance,
    not_comparable,
    paper_sampling_gap,
    pending,
    printed_value,
    qualitative,
    quantitative,
    read_claims,
    rounding_interval,
    scorecard,
    style_claims,
    two_study_error,
    verdict_for,
    write_claims,
)
from gameai.book.claims_table import claims_table, scorecard_table


def claims_ok():
    return [
        quantitative("t1", "HeuristicAI wins 30.8 %", 0.308, 0.31, 0.29, 0.33, 13000),
        quantitative("t2", "MCE wins 60 %", 0.60, 0.52, 0.50, 0.54, 2000, note="fewer rollouts"),
        qualitative("q1", "UCT beats MCE", "UCT > MCE", "UCT > MCE", True, 500),
        qualitative("q2", "more budget helps", "monotone", "flat", False, 500, note="saturates"),
        pending("p1", "full-scale table", 0.7, note="needs 10^6 games; not run yet"),
    ]


def test_columns_exact():
    assert COLUMNS == ["claim", "description", "paper", "ours", "ci_low", "ci_high", "n", "verdict", "note",
                       "step", "n_paper", "proportion", "percent"]
    assert list(Claim.__dataclass_fields__) == COLUMNS


def test_verdicts():
    assert verdict_for(0.5, 0.4, 0.6) == "reproduced"
    assert verdict_for(0.4, 0.4, 0.6) == "reproduced"
    assert verdict_for(0.7, 0.4, 0.6) == "differs"
    assert verdict_for(0.5, math.nan, math.nan) == "differs"
    assert [c.verdict for c in claims_ok()] == ["reproduced", "differs", "holds", "fails", "pending"]


def test_round_trip(tmp_path):
    path = write_claims("toy", claims_ok(), tmp_path)
    assert path == tmp_path / "toy" / "claims.csv"
    df = read_claims("toy", tmp_path)
    assert list(df.columns) == COLUMNS
    assert list(df["claim"]) == ["t1", "t2", "q1", "q2", "p1"]  # order as given
    assert df.loc[0, "paper"] == 0.308 and df.loc[2, "paper"] == "UCT > MCE"
    assert df.loc[0, "note"] == ""


@pytest.mark.parametrize(
    "bad, match",
    [
        (quantitative("x", "d", 0.9, 0.5, 0.4, 0.6, 10), "no note"),
        (qualitative("x", "d", "a", "b", False, 10), "no note"),
        (pending("x", "d", 0.5, note=" "), "no note"),
        (Claim("x", "d", 0.5, 0.5, 0.4, 0.6, 10, "maybe", "n"), "verdict must be one of"),
        (Claim("x", "d", 0.9, 0.5, 0.4, 0.6, 10, "reproduced"), "contradicts"),
        (Claim("t1", "d", 0.5, 0.5, 0.4, 0.6, 10, "reproduced"), "duplicate"),
    ],
)
def test_write_rejects(tmp_path, bad, match):
    with pytest.raises(ValueError, match=match):
        write_claims("toy", [claims_ok()[0], bad], tmp_path)
    assert not (tmp_path / "toy" / "claims.csv").exists()


def test_scorecard(tmp_path):
    write_claims("alpha", claims_ok(), tmp_path)
    write_claims("beta", claims_ok()[:1], tmp_path)
    (tmp_path / "gamma").mkdir()  # a chapter without claims is not listed
    card = scorecard(tmp_path)
    assert list(card.columns) == ["chapter", "reproduced", "consistent", "differs",
                                  "not comparable", "holds", "fails", "undecided", "pending",
                                  "differs by chance", "total"]
    zero = {"consistent": 0, "not comparable": 0, "undecided": 0}
    assert card.to_dict("records") == [
        {"chapter": "alpha", "reproduced": 1, "differs": 1, "holds": 1, "fails": 1, "pending": 1,
         **zero, "differs by chance": 0.1, "total": 5},
        {"chapter": "beta", "reproduced": 1, "differs": 0, "holds": 0, "fails": 0, "pending": 0,
         **zero, "differs by chance": 0.1, "total": 1},
    ]
    assert len(scorecard(tmp_path / "nothing")) == 0


def test_style_claims(tmp_path):
    write_claims("toy", claims_ok(), tmp_path)
    shown = style_claims(read_claims("toy", tmp_path))
    assert shown.loc[0, "ci_low"] == "0.290" and shown.loc[2, "ci_low"] == ""
    assert shown.loc[2, "paper"] == "UCT > MCE"
    assert isinstance(shown, pd.DataFrame)


# ------------------------------------------------------------------ rounding-aware verdicts
@pytest.mark.parametrize(
    "text, value, step",
    [("70 %", 0.70, 0.01), ("70%", 0.70, 0.01), ("30.8 %", 0.308, 0.001), ("85", 85.0, 1.0),
     ("0.25", 0.25, 0.01), ("1.5", 1.5, 0.1), ("100 %", 1.0, 0.01)],
)
def test_printed_value(text, value, step):
    v, s = printed_value(text)
    assert v == pytest.approx(value) and s == pytest.approx(step)


def test_printed_value_rejects_words():
    with pytest.raises(ValueError, match="not a printed number"):
        printed_value("about 70")


def test_rounding_interval():
    lo, hi = rounding_interval(0.70, 0.01)
    assert lo == pytest.approx(0.695) and hi == pytest.approx(0.705)
    assert rounding_interval(0.7) == (0.7, 0.7)
    with pytest.raises(ValueError):
        rounding_interval(0.7, -0.01)


@pytest.mark.parametrize(
    "lo, hi, expected",
    [
        (0.7009, 0.7123, "reproduced"),   # printed 70 % may be 70.4 %: inside [70.09, 71.23]
        (0.7049, 0.72, "reproduced"),
        (0.7050, 0.72, "differs"),        # [69.5, 70.5) is half-open: 70.5 % prints as 71 %
        (0.68, 0.6950, "reproduced"),     # 69.5 % prints as 70 %
        (0.68, 0.6949, "differs"),
        (0.60, 0.80, "reproduced"),
        (math.nan, math.nan, "differs"),
    ],
)
def test_verdict_with_rounding(lo, hi, expected):
    assert verdict_for(0.70, lo, hi, 0.01) == expected


def test_verdict_without_step_is_exact():
    assert verdict_for(0.70, 0.7009, 0.7123) == "differs"
    assert verdict_for(0.70, 0.7009, 0.7123, 0.0) == "differs"
    assert verdict_for(0.70, 0.7009, 0.7123, math.nan) == "differs"


def test_quantitative_rounding_from_text_or_step(tmp_path):
    a = quantitative("a", "printed", "70 %", 0.706, 0.7009, 0.7123, 10000)
    b = quantitative("b", "step given", 0.70, 0.706, 0.7009, 0.7123, 10000, step=0.01)
    c = quantitative("c", "exact", 0.70, 0.706, 0.7009, 0.7123, 10000, note="just below")
    assert (a.paper, a.step, a.verdict) == (0.70, 0.01, "reproduced")
    assert (b.step, b.verdict) == (0.01, "reproduced")
    assert (c.step, c.verdict) == (0.0, "differs")
    write_claims("toy", [a, b, c], tmp_path)
    df = read_claims("toy", tmp_path)
    assert list(df["step"]) == [0.01, 0.01, 0.0]
    # the check on write recomputes the verdict with the step
    bad = Claim("d", "d", 0.70, 0.706, 0.7009, 0.7123, 10, "differs", "n", 0.01)
    with pytest.raises(ValueError, match="contradicts"):
        write_claims("toy", [bad], tmp_path)
    with pytest.raises(ValueError, match="rounding step"):
        write_claims("toy", [Claim("e", "d", 0.7, 0.7, 0.6, 0.8, 10, "reproduced", "", -1.0)], tmp_path)


def test_read_claims_without_step_column(tmp_path):
    write_claims("toy", claims_ok(), tmp_path)
    path = tmp_path / "toy" / "claims.csv"
    df = pd.read_csv(path).drop(columns="step")
    df.to_csv(path, index=False)
    assert list(read_claims("toy", tmp_path)["step"]) == [0.0] * 5


# ------------------------------------------------------------------------------ rendering
def test_claims_table_html(tmp_path):
    long_note = "First sentence says why. " + "Then a long control explanation. " * 20
    rows = claims_ok() + [quantitative("t3", "long note", "70 %", 0.8, 0.78, 0.82, 100, note=long_note)]
    write_claims("toy", rows, tmp_path)
    out = claims_table(read_claims("toy", tmp_path), "toy", group={"t": "Tables", "q": "Words"}).data
    assert 'id="claims-toy"' in out and 'data-chapter="toy"' in out
    assert out.count('<tr class="claim') == 6 and out.count(' data-claim="') == 6
    assert [f'data-claim="{c}"' in out for c in ("t1", "t2", "q1", "q2", "p1", "t3")] == [True] * 6
    assert "nan" not in out.lower().replace("nanos", "")
    assert "None" not in out
    assert "31.0\u00a0%" in out and "29.0\u201333.0\u00a0%" in out   # ours and CI as percentages
    assert ">30.8\u00a0%<" in out  # the paper's value with its printed digits (exact: 1 decimal)
    assert ">70\u00a0%<" in out    # a whole percentage stays whole
    assert "13,000" in out
    assert 'id="claim-toy-t1"' in out  # every row is a link target
    assert '<td colspan="3" class="txt"><b>paper:</b> UCT &gt; MCE<br><b>ours:</b> UCT &gt; MCE</td>' in out
    assert "<details><summary>First sentence says why." in out  # long notes fold
    assert out.count('class="group"') == 3  # Tables, Words, (p1 has none), Tables again
    for v in ("reproduced", "differs", "holds", "fails", "pending"):
        assert v in out


def test_claims_table_plain_numbers(tmp_path):
    write_claims("toy", [quantitative("w", "a weight", "85", 84.2, 83.0, 86.0, 10)], tmp_path)
    out = claims_table(read_claims("toy", tmp_path), "toy", percent=False).data
    assert ">85<" in out and ">84.2<" in out and ">83.0\u201386.0<" in out
    assert "%<" not in out


def test_scorecard_table(tmp_path):
    write_claims("alpha", claims_ok(), tmp_path)
    out = scorecard_table(tmp_path, [("alpha", "Alpha", "alpha.html"), ("beta", "Beta", "beta.html")]).data
    assert 'href="alpha.html#claims-alpha"' in out
    assert 'data-chapter="beta"' in out and "planned" in out
    assert 'href="beta.html' not in out
    assert "<b>5</b>" in out


def test_claims_table_short_descriptions_and_long_first_sentences(tmp_path):
    word_salad = "word " * 60
    rows = [quantitative("g.a", "Fig. 2 HeuristicAI: mean win %", "44 %", 0.5, 0.49, 0.51, 10,
                         note=word_salad.strip() + ". Second.")]
    write_claims("toy", rows, tmp_path)
    df = read_claims("toy", tmp_path)
    grouped = claims_table(df, "toy", group={"g": "Fig. 2"}).data
    assert '<td title="g.a">mean win %</td>' in grouped  # the heading carries the label
    assert 'for citing">g.a</span></details>' in grouped  # the id moves to the note
    assert "Fig. 2 HeuristicAI: mean win %" in claims_table(df, "toy").data
    assert "\u2026 <em>(more)</em>" in grouped        # a first sentence too long is cut at a word


def test_claims_table_sizes_numeric_columns_to_their_values(tmp_path):
    rows = [quantitative("nodes.a", "nodes", 1_598_924, 4_531_278.4, 4_393_112.6, 4_669_444.0, 200,
                         step=1, note="why"),
            quantitative("ratio.b", "a ratio", 184, 42.93, 40.03, 46.07, 200, step=1,
                         note="why")]
    write_claims("toy", rows, tmp_path)
    out = claims_table(read_claims("toy", tmp_path), "toy", percent=False,
                       decimals=lambda cid: 0 if cid.startswith("nodes.") else 1).data
    assert ">4,531,278<" in out and ">42.9<" in out  # per-claim digits
    assert ">4,393,113\u2013<br>4,669,444<" in out  # a long CI breaks after its dash
    assert ">40.0\u201346.1<" in out  # a short one stays on one line
    # paper / ours / CI / n columns: their longest entry ("1,598,924", "4,531,278",
    # "4,393,113-", "our 95 % CI" header) plus 2ch
    assert ('<col style="width:11ch"><col style="width:11ch"><col style="width:13ch">'
            '<col style="width:5ch">') in out


def test_claims_table_keeps_labels_on_request_and_writes_negative_intervals_with_to(tmp_path):
    rows = [quantitative("t.all", "all enhancements: nodes", 10, 12.0, 11.0, 13.0, 20, step=1,
                         note="why"),
            quantitative("t.margin", "a margin", -35.0, -35.5, -37.9, -33.2, 200, step=0.1,
                         note="why"),
            quantitative("t.offset", "an offset", 0.0, 0.4, -1.0, 1.7, 200, step=0.1,
                         note="why")]
    write_claims("toy", rows, tmp_path)
    df = read_claims("toy", tmp_path)
    kept = claims_table(df, "toy", group={"t": "Table 1"}, percent=False,
                        drop_labels=False).data
    assert '<td title="t.all">all enhancements: nodes</td>' in kept
    assert '<td title="t.all">nodes</td>' in claims_table(df, "toy", group={"t": "Table 1"},
                                                           percent=False).data
    assert ">-37.9 to -33.2<" in kept and ">-1.0 to 1.7<" in kept  # never "-37.9–-33.2"
    assert ">11.0\u201313.0<" in kept


def test_a_pending_claim_in_words_says_it_is_not_computed(tmp_path):
    write_claims("toy", [pending("f.C", "best C by budget", "C falls with the budget",
                                 note="Fig. 7 run pending")], tmp_path)
    out = claims_table(read_claims("toy", tmp_path), "toy").data
    assert "<b>ours:</b> <em>not computed yet</em>" in out


def test_paper_sampling_gap_counts_both_samples_errors():
    # paper -10 (step 0.1); ours -7 with CI [-8, -6] from 800 games; paper 200 games
    c = quantitative("x", "d", -10.0, -7.0, -8.0, -6.0, 800, step=0.1, note="why")
    gap, error = paper_sampling_gap(c, 200)
    # half-widths 1 (ours) and 1 x sqrt(800 / 200) = 2 (the paper's): sqrt(1 + 4), not 1 + 2
    assert math.isclose(gap, 2.95) and math.isclose(error, math.sqrt(5))
    above = quantitative("y", "d", 5.0, 2.0, 1.0, 3.0, 100, n_paper=100, note="why")
    assert paper_sampling_gap(above) == (3.0, math.sqrt(2))  # the claim's own n_paper
    assert paper_sampling_gap(quantitative("z", "d", -7.0, -7.0, -8.0, -6.0, 800), 200) is None
    assert paper_sampling_gap(c, None) is None
    assert paper_sampling_gap(pending("p", "d", 1.0, "later"), 200) is None


def test_claims_table_folds_rows_away_but_keeps_them_in_the_page(tmp_path):
    import re

    rows = [quantitative("a.1", "kept", 1.0, 1.0, 0.5, 1.5, 10, step=0.1, note="why"),
            quantitative("b.1", "agrees", 1.0, 1.0, 0.5, 1.5, 10, step=0.1, note="a note"),
            quantitative("b.2", "differs", 1.0, 3.0, 2.5, 3.5, 10, step=0.1, note="why"),
            pending("b.3", "later", 1.0, "not yet")]
    write_claims("toy", rows, tmp_path)
    df = read_claims("toy", tmp_path)
    out = claims_table(df, "toy", group={"a": "A", "b": "B"},
                       fold=lambda cid, verdict: cid.startswith("b.") and verdict != "differs").data
    assert len(re.findall(r'<tr class="claim[^"]*" data-claim=', out)) == 4  # all still there
    assert re.findall(r'class="claim[^"]*folded[^"]*" data-claim="([^"]+)"', out) == ["b.1", "b.3"]
    assert 'class="note folded" data-note-of="b.1"' in out  # a folded claim's note folds too
    assert "2 more rows folded (1 reproduced, 1 pending)" in out
    assert out.index("2 more rows folded") > out.index('data-claim="b.3"')  # closes group B
    assert "show the 2 folded rows too</label>" in out and 'class="gameai-unfold"' in out
    plain = claims_table(df, "toy", group={"a": "A", "b": "B"}).data
    assert "folded" not in plain.split("</style>")[1] and "gameai-unfold\"" not in plain


# ------------------------------------------------------------------ the two-study verdict rule
def test_inside_our_ci_is_reproduced_whatever_the_paper_n():
    c = quantitative("a", "d", -9.0, -8.8, -9.5, -8.1, 200, n_paper=200)
    assert c.verdict == "reproduced" and c.note == ""


def test_outside_our_ci_but_within_both_studies_error_is_consistent():
    # a mean: ours -7.5 [-8.8, -6.2] (half-width 1.3) over 200 games, the paper's -9.0 over 200:
    # error = 1.3 * sqrt(2) = 1.84 > gap 1.45 (1.5 less half the 0.1 step)
    c = quantitative("a", "d", -9.0, -7.5, -8.8, -6.2, 200, step=0.1, n_paper=200)
    assert c.verdict == "consistent"
    assert two_study_error(-7.5, -8.8, -6.2, 200, 200) == pytest.approx(1.3 * math.sqrt(2))
    assert "within what chance explains" in c.note and "0.79 times" in c.note


def test_beyond_both_studies_error_differs_and_says_by_how_much():
    c = quantitative("a", "d", -9.0, -5.0, -6.3, -3.7, 200, step=0.1, n_paper=200,
                     note="our opponents are stronger.")
    assert c.verdict == "differs"
    assert c.note.startswith("our opponents are stronger. Ours is 3.95 from the printed value, "
                             "2.15 times the 95 % error")
    # a paper with fewer games makes the error larger: the same gap is consistent with n = 20
    assert quantitative("a", "d", -9.0, -5.0, -6.3, -3.7, 200, step=0.1,
                        n_paper=20).verdict == "consistent"


def test_a_mean_shown_as_a_percentage_gives_its_gaps_in_percentage_points():
    # a mean score of 0.826 [0.821, 0.831] over 12,000 games against a printed 57 %
    args = ("s", "mean score %", 0.57, 0.826, 0.821, 0.831, 12000, "our MC is stronger.")
    shown = quantitative(*args, step=0.01, n_paper=12000, percent=True)
    assert shown.verdict == "differs" and shown.percent == 1
    assert "Ours is 25.1 points from the printed value" in shown.note
    assert "(\u00b10.7 points)" in shown.note
    plain = quantitative(*args, step=0.01, n_paper=12000)
    assert "Ours is 0.251 from the printed value" in plain.note
    with pytest.raises(ValueError, match="percent must be 0 or 1"):
        write_claims("toy", [replace(shown, percent=2)], "unused")


def test_a_claims_file_without_the_percent_column_reads_as_its_own_units(tmp_path):
    write_claims("toy", [quantitative("a", "d", 0.5, 0.5, 0.4, 0.6, 10)], tmp_path)
    path = tmp_path / "toy" / "claims.csv"
    pd.read_csv(path).drop(columns=["percent"]).to_csv(path, index=False)
    assert read_claims("toy", tmp_path)["percent"].tolist() == [0]


def test_without_a_paper_n_the_rounding_rule_alone_judges_and_the_note_says_so():
    c = quantitative("a", "d", -9.0, -7.5, -8.8, -6.2, 200, step=0.1)
    assert c.verdict == "differs" and "gives no sample size" in c.note


def test_proportions_use_the_binomial_spread():
    # 52 % of 1,000 games (CI half-width about 3.1 points) against a paper's 56 % of 1,000:
    # error = hypot(3.1, 1.96 sqrt(.52 .48 / 1000)) = 4.4 points > gap 3.5 -> consistent
    c = quantitative("w", "d", "56 %", 0.52, 0.489, 0.551, 1000, n_paper=1000, proportion=1)
    assert c.verdict == "consistent"
    pct = quantitative("w", "d", 56.0, 52.0, 48.9, 55.1, 1000, step=1, n_paper=1000,
                       proportion=100)
    assert pct.verdict == "consistent" and "points" in pct.note
    # the same gap over 100,000 games of ours and 10,000 of the paper's is real
    assert quantitative("w", "d", "56 %", 0.52, 0.517, 0.523, 100_000, n_paper=10_000,
                        proportion=1).verdict == "differs"


def test_a_proportion_near_zero_still_has_a_spread():
    # ours 0 of 500 (CI [0, 0.0076]), the paper's 1.2 % of 100: with p estimated as 0 the
    # paper's spread would vanish; Agresti-Coull keeps it (about 1.3 points)
    c = quantitative("z", "d", 0.012, 0.0, 0.0, 0.0076, 500, n_paper=100, proportion=1)
    assert c.verdict == "consistent"
    assert two_study_error(0.0, 0.0, 0.0076, 500, 100, proportion=1) > 0.012
    assert quantitative("z", "d", 0.05, 0.0, 0.0, 0.0076, 500, n_paper=100,
                        proportion=1).verdict == "differs"


def test_a_written_consistent_claim_is_checked_against_the_rule(tmp_path):
    ok = quantitative("a", "d", -9.0, -7.5, -8.8, -6.2, 200, step=0.1, n_paper=200)
    write_claims("toy", [ok], tmp_path)
    df = read_claims("toy", tmp_path)
    assert df.loc[0, "verdict"] == "consistent" and df.loc[0, "n_paper"] == 200
    forged = Claim("a", "d", -9.0, -7.5, -8.8, -6.2, 200, "consistent", "x", 0.1, 0, 0.0)
    with pytest.raises(ValueError, match="the rule says 'differs'"):
        write_claims("toy", [forged], tmp_path)


def test_not_comparable_needs_a_note_and_is_not_judged(tmp_path):
    nc = not_comparable("nodes", "nodes searched", 8667, 58965.2, 55881, 62049, 200,
                        note="the thesis does not define a node; table1.reduction is judged")
    write_claims("toy", [nc], tmp_path)
    df = read_claims("toy", tmp_path)
    assert df.loc[0, "verdict"] == "not comparable" and expected_by_chance(df) == 0
    with pytest.raises(ValueError, match="no note"):
        write_claims("toy", [not_comparable("x", "d", 1, 2, 1, 3, 5, note="")], tmp_path)


def test_scorecard_counts_what_chance_predicts(tmp_path):
    rows = [quantitative(f"c{i}", "d", 0.5, 0.5, 0.4, 0.6, 100) for i in range(18)]
    rows += [quantitative("d1", "d", 0.9, 0.5, 0.4, 0.6, 100, note="why"),
             quantitative("d2", "d", -9.0, -7.5, -8.8, -6.2, 200, step=0.1, n_paper=200),
             qualitative("q", "d", "a", "a", True, 10)]
    write_claims("toy", rows, tmp_path)
    card = scorecard(tmp_path).set_index("chapter")
    assert card.loc["toy", "differs by chance"] == pytest.approx(1.0)  # 5 % of 20 judged
    assert card.loc["toy", ["reproduced", "consistent", "differs", "holds"]].tolist() == [
        18, 1, 1, 1]
    html = scorecard_table(tmp_path, [("toy", "Toy", "toy.html")]).data
    assert "by chance" in html and "<em>1.0</em>" in html
    table = claims_table(read_claims("toy", tmp_path), "toy").data
    assert "about 1.0 of the 20 judged numbers" in table


def test_claims_csv_holds_no_binary_rounding_noise(tmp_path):
    c = quantitative("a", "d", 0.44, 0.5717899999999999, 0.568824, 0.574756, 100, note="why")
    write_claims("toy", [c], tmp_path)
    text = (tmp_path / "toy" / "claims.csv").read_text()
    assert "0.57179," in text and "0.5717899999999999" not in text


def _family(tmp_path, gaps, n_paper=200, extra=()):
    """A toy family 'tab' of cells whose ours lies ``gap`` from the paper (se 1 on each side)."""
    half = 1.96  # our CI half-width: se 1; the paper's the same over its 200 games
    rows = [quantitative(f"tab.c{i}", "d", 0.0, g, g - half, g + half, 200, n_paper=n_paper,
                         note="why")
            for i, g in enumerate(gaps)]
    write_claims("toy", [*rows, *extra], tmp_path)
    return read_claims("toy", tmp_path)


def test_claim_p_value_is_the_verdict_rule_s_test(tmp_path):
    from gameai.core.claims import claim_p_value

    df = _family(tmp_path, [0.5, 2.0, 2.7, 2.78, 4.0])
    for r in df.itertuples(index=False):
        p = claim_p_value(r)
        assert (p < 0.05) == (r.verdict == "differs"), (r.claim, p, r.verdict)
    # gap 0.5, standard error of the difference sqrt(1 + 1): z = 0.5 / sqrt(2)
    assert claim_p_value(next(df.itertuples())) == pytest.approx(
        math.erfc(0.5 / math.sqrt(2) / math.sqrt(2)), rel=1e-4)
    q = read_claims("toy", tmp_path).iloc[0].copy()
    q["verdict"] = "holds"
    assert math.isnan(claim_p_value(q))


def test_family_counts_before_and_after_correction(tmp_path):
    from gameai.core.claims import family_counts, family_sentence

    gaps = [0.0] * 16 + [3.0, 3.2, 9.0, 10.0]  # four differ: two by a little, two by far
    df = _family(tmp_path, gaps, extra=[quantitative("small.a", "d", 0.0, 5.0, 4.0, 6.0, 100,
                                                     note="why")])
    fam = family_counts(df).set_index("family")
    assert list(fam.index) == ["tab"]  # 'small' has fewer than ten judged numbers
    r = fam.loc["tab"]
    assert (r.judged, r.differs, r.by_chance) == (20, 4, pytest.approx(1.0))
    assert r.holm == 2 and r.bh == 2  # the two near misses do not survive correction
    assert family_sentence(r) == ("4 of 20 differ (about 1.0 by chance); after correction: "
                                  "2 (Holm), 2 (Benjamini\u2013Hochberg)")
    table = claims_table(df, "toy", group={"tab.": "Table T"}).data
    assert "Table T <span" in table and "after correction: 2 (Holm)" in table


def test_family_offset_tells_a_shift_from_scatter(tmp_path):
    from gameai.core.claims import family_offset, offset_sentence

    rng = __import__("numpy").random.default_rng(3)
    noise = rng.normal(0, math.sqrt(2), 60)  # the two-study spread of each difference
    shift = [0.0] * 30 + [-2.0] * 30
    df = _family(tmp_path, list(noise + shift))
    band = lambda c: "short" if int(c.split(".c")[1]) < 30 else "long"  # noqa: E731
    two = family_offset(df, "tab", band)
    assert two["p"] > 0.05 and two["shifts"]["long"][2] < 0 < two["shifts"]["short"][2]
    text = offset_sentence(two, "our values")
    assert text.startswith("short, our values show no shift from the paper's")
    assert "long, they sit 2." in text and "points below the paper's" in text
    assert "around those shifts the cells scatter as chance predicts" in text
    one = family_offset(df, "tab")
    assert one["p"] < 0.05 and "more than chance predicts" in offset_sentence(one)
    assert family_offset(df, "none") is None


def test_the_scorecard_caption_names_large_families(tmp_path):
    _family(tmp_path, [0.0] * 18 + [9.0, 10.0])
    html = scorecard_table(tmp_path, [("toy", "Toy", "toy.html")],
                           family_titles={("toy", "tab"): "Table T"}).data
    assert ("<caption>The scorecard" in html and "Toy, Table T: 2 of 20 differ (about 1.0 by "
            "chance); after correction: 2 (Holm), 2 (Benjamini\u2013Hochberg)" in html)
    from gameai.book.claims_table import family_title
    assert family_title("table3") == "Table 3" and family_title("fig7") == "Fig. 7"


def test_a_value_that_rounds_to_zero_shows_without_a_minus(tmp_path):
    write_claims("toy", [quantitative("a", "d", 1.2, 1.9, -0.04, 3.9, 200, step=0.1, n_paper=200)],
                 tmp_path)
    table = claims_table(read_claims("toy", tmp_path), "toy", percent=False).data
    assert "0.0\u20133.9" in table and "-0.0" not in table  # an end at zero carries no sign


def test_a_claim_judged_on_fewer_games_than_the_paper_says_so():
    small = quantitative("t", "wins", 0.30, 0.31, 0.25, 0.37, 200, n_paper=1000, proportion=1)
    assert "Judged on n = 200, fewer than the paper's 1,000." in small.note
    full = quantitative("t", "wins", 0.30, 0.31, 0.29, 0.33, 1000, n_paper=1000, proportion=1)
    assert "fewer than the paper" not in full.note


def test_a_mean_gap_names_its_unit_where_the_caller_gives_one():
    c = quantitative("a", "d", -9.0, -5.0, -6.3, -3.7, 200, step=0.1, n_paper=200, unit="points")
    assert "Ours is 3.95 points from the printed value" in c.note and "(±1.84 points)" in c.note
    assert "Ours is 3.95 from" in quantitative("a", "d", -9.0, -5.0, -6.3, -3.7, 200, step=0.1,
                                               n_paper=200).note


def test_claims_in_words_can_stay_undecided_and_their_counts_read_as_sentences():
    from gameai.core.claims import qualitative, verdict_count

    assert qualitative("a.b", "d", "p", "o", True, 10).verdict == "holds"
    assert qualitative("a.b", "d", "p", "o", False, 10, note="why").verdict == "fails"
    assert qualitative("a.b", "d", "p", "o", None, 10, note="why").verdict == "undecided"
    assert [verdict_count(n, v) for n, v in ((1, "differs"), (29, "differs"), (2, "fails"),
                                             (3, "holds"), (4, "reproduced"))] == \
        ["1 differs", "29 differ", "2 fail", "3 hold", "4 reproduced"]
