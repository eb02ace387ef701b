"""Shared machinery of the book: parameters, parallel runner, results store, statistics, claims.

Nothing here knows about any game; the chapters' packages build on it.
"""

from .claims import (
    COLUMNS,
    Claim,
    pending,
    qualitative,
    quantitative,
    read_claims,
    scorecard,
    style_claims,
    write_claims,
)
from .params import Param, validate
from .runner import config_key, run_tasks, task_seed
from .stats import mean_ci, mean_of_means_ci, mean_of_rates_ci, wilson
from .store import Experiment, MissingResults, load, load_or_run, status

__all__ = [
    "COLUMNS",
    "Claim",
    "Experiment",
    "MissingResults",
    "Param",
    "config_key",
    "load",
    "load_or_run",
    "mean_ci",
    "mean_of_means_ci",
    "mean_of_rates_ci",
    "pending",
    "qualitative",
    "quantitative",
    "read_claims",
    "run_tasks",
    "scorecard",
    "status",
    "style_claims",
    "task_seed",
    "validate",
    "wilson",
    "write_claims",
]
