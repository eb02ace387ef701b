"""Frank's Zoo experiments: determinism across workers, parameter errors, derived tables."""

import numpy as np
import pandas as pd
import pytest

from gameai.core.runner import run_tasks
from gameai.frankszoo import chapter
from gameai.frankszoo.experiments import GameTask, heuristic_weights, likelihoods, win_weights


def _tasks():
    cfgs = [{"deck": d, "seats": ["HeuristicAI", "MC-score", "RandomAI", "RandomAI"],
             "pass_rule": "uniform", "episodes": 3, "weights": w}
            for d, w in (("test3", [60, 40, 20]), ("test5", [60, 40, 30, 20, 10]))]
    return [(c, i) for c in cfgs for i in range(6)]


def test_games_identical_for_one_and_two_workers():
    one = run_tasks(GameTask(), _tasks(), root_seed=7, n_jobs=1, chunk_size=4, progress=False)
    two = run_tasks(GameTask(), _tasks(), root_seed=7, n_jobs=2, chunk_size=3, progress=False)
    pd.testing.assert_frame_equal(one, two)
    assert set(one.columns) >= {"score0", "score1", "score2", "score3", "first", "turns"}
    assert (one[["score0", "score1", "score2", "score3"]].sum(axis=1) == 9).all()


@pytest.mark.parametrize("override, message", [
    ({"games_per_deck": -5}, "games_per_deck"),
    ({"nonsense": 1}, "unknown parameter 'nonsense'"),
    ({"pass_rule": "sometimes"}, "pass_rule"),
    ({"fig7_max_types": 14}, "fig7_max_types"),
])
def test_bad_parameters_fail_before_any_work(override, message):
    with pytest.raises(ValueError, match=message):
        chapter.results(override, data_dir="/nonexistent/never-created")


def test_ci_profile_shrinks_only_untouched_sizes():
    p = chapter.resolve({"profile": "ci", "games_per_deck": 123})
    assert p["games_per_deck"] == 123
    assert p["mc_games"] == chapter.CI_SIZES["mc_games"]


def test_weight_recipes():
    assert heuristic_weights([85_499, 54_500]) == [85, 55]  # /1000, rounded half up
    played = np.zeros((3, 3), dtype=np.int64)
    won = np.zeros((3, 3), dtype=np.int64)
    played[0, 1], won[0, 1], played[0, 2] = 4, 1, 4
    assert win_weights(played, won)[0, 1] == 0.25 and win_weights(played, won)[1, 1] == 0
    assert likelihoods(played)[0, 1] == 0.5  # Equation 4


def test_notebook_parameters_cell_lists_every_chapter_parameter():
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).parents[2] / "book" / "frankszoo.ipynb").read_text())
    cell = next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))
    names = {line.split("=")[0].strip() for line in "".join(cell["source"]).splitlines() if "=" in line}
    assert names == set(chapter.PARAMETERS)
