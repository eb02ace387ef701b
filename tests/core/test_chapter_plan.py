"""A chapter's entry points come from its :class:`ChapterPlan`: steps in the plan's order, the
ci profile's sizes, pending results when it may not compute, the claims written by ``run``."""

from __future__ import annotations

import pandas as pd
import pytest

from gameai.core.chapter import COMPUTE_MISSING, ChapterPlan, Results, run_settings
from gameai.core.claims import Claim, read_claims
from gameai.core.params import Param

SPEC = {**run_settings(7), "games": Param(6, int, "games", minimum=1),
        "compute_missing": COMPUTE_MISSING}


def play(config, index, rng):
    return {"score": int(rng.integers(10)) + config["bonus"]}


def step(key: str, bonus: int, order: list):
    """A step loading (or computing) experiment ``key``; it notes when the plan calls it."""
    def load(res: Results) -> None:
        order.append(key)
        res.get(key, key, play, [{"bonus": bonus}], res.params["games"], chunk_size=2,
                description="toy experiment")
    return load


def claims(res: Results) -> list[Claim]:
    df = res["second"]
    mean = None if df is None else float(df["score"].mean())
    verdict = "pending" if mean is None else "holds"
    return [Claim("toy.mean", "mean score above 100", "> 100", mean, float("nan"),
                  float("nan"), 0 if df is None else len(df), verdict,
                  "not computed yet" if mean is None else "")]


def make_plan() -> tuple[ChapterPlan, list]:
    order: list = []
    plan = ChapterPlan("toy", "1", SPEC, {"games": 2},
                       steps=(step("second", 100, order), step("first", 0, order)),
                       build_claims=claims)
    return plan, order


def test_steps_run_in_the_plans_order_and_results_stay_pending_without_compute(
        tmp_path):
    plan, order = make_plan()
    res = plan.results(data_dir=tmp_path, compute=False, progress=False)
    assert order == ["second", "first"]
    assert res.pending() == ["second", "first"]
    assert not (tmp_path / "toy").exists()  # nothing written when it may not compute


def test_run_computes_every_step_and_writes_the_claims(tmp_path, capsys):
    plan, _ = make_plan()
    res = plan.run(data_dir=tmp_path, progress=False)
    assert res.pending() == []
    assert len(res["first"]) == 6 and (res["second"]["score"] >= 100).all()
    written = read_claims("toy", tmp_path)
    assert written.loc[0, "verdict"] == "holds" and written.loc[0, "n"] == 6
    assert "6/6 tasks cached" in capsys.readouterr().out
    again = plan.results(data_dir=tmp_path, compute=False, progress=False)
    pd.testing.assert_frame_equal(again["first"], res["first"])


def test_the_ci_profile_shrinks_sizes_left_at_their_default_only():
    plan, _ = make_plan()
    assert plan.resolve({"profile": "ci"})["games"] == 2
    assert plan.resolve({"profile": "ci", "games": 5})["games"] == 5
    with pytest.raises(ValueError, match="games"):
        plan.resolve({"games": 0})


def test_a_reruns_claims_on_fewer_games_than_the_published_book_say_so(tmp_path):
    from gameai.core.chapter import against_published
    from gameai.core.claims import qualitative, write_claims

    book = [qualitative("q1", "EvalAI beats SmallestAI", "better", "better", True, 10_000),
            qualitative("q2", "more cards help", "yes", "yes", True, 500)]
    write_claims("toy", book, tmp_path)
    rerun = [qualitative("q1", "EvalAI beats SmallestAI", "better", "better", True, 200),
             qualitative("q2", "more cards help", "yes", "yes", True, 500),
             qualitative("q3", "new", "yes", "yes", True, 10)]
    out = {c.claim: c.note for c in against_published(rerun, "toy", tmp_path)}
    assert out["q1"].endswith("This run judges it on n = 200; the published book, on 10,000.")
    assert "published book" not in out["q2"] and "published book" not in out["q3"]
    assert against_published(rerun, "toy", tmp_path / "none") == rerun  # no published claims
