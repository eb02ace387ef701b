import math

import pandas as pd
import pytest

from gameai.core.claims import (
    COLUMNS,
    Claim,
    pending,
    qualitative,
    quantitative,
    read_claims,
    scorecard,
    style_claims,
    verdict_for,
    write_claims,
)


def claims_ok():
    return [
        quantitative("t1", "HeuristicAI wins 30.8 %", 0.308, 0.31, 0.29, 0.33, 13000),
        quantitative("t2", "MCE wins 60 %", 0.60, 0.52, 0.50, 0.54, 2000, note="fewer rollouts"),
        qualitative("q1", "UCT beats MCE", "UCT > MCE", "UCT > MCE", True, 500),
        qualitative("q2", "more budget helps", "monotone", "flat", False, 500, note="saturates"),
        pending("p1", "full-scale table", 0.7, note="needs 10^6 games; not run yet"),
    ]


def test_columns_exact():
    assert COLUMNS == ["claim", "description", "paper", "ours", "ci_low", "ci_high", "n", "verdict", "note"]
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
    assert list(card.columns) == ["chapter", "reproduced", "differs", "holds", "fails", "pending", "total"]
    assert card.to_dict("records") == [
        {"chapter": "alpha", "reproduced": 1, "differs": 1, "holds": 1, "fails": 1, "pending": 1, "total": 5},
        {"chapter": "beta", "reproduced": 1, "differs": 0, "holds": 0, "fails": 0, "pending": 0, "total": 1},
    ]
    assert len(scorecard(tmp_path / "nothing")) == 0


def test_style_claims(tmp_path):
    write_claims("toy", claims_ok(), tmp_path)
    shown = style_claims(read_claims("toy", tmp_path))
    assert shown.loc[0, "ci_low"] == "0.290" and shown.loc[2, "ci_low"] == ""
    assert shown.loc[2, "paper"] == "UCT > MCE"
    assert isinstance(shown, pd.DataFrame)
