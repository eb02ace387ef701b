"""The runner gives identical rows for any n_jobs, chunking and backend, and rejects bad options."""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd
import pytest

from gameai.core.runner import Progress, config_key, run_tasks, task_seed


def make_draw():
    """A cheap experiment drawing from its rng; made in a factory so workers get it by value
    (whatever pytest's import mode, loky and dask workers need not import this test module)."""

    def draw(config, index, rng):
        rows = [{"x": float(rng.random()), "k": int(rng.integers(1000)), "a2": config["a"] * 2}]
        if index % 3 == 0:  # some tasks give two rows, to check row order is kept
            rows.append({"x": float(rng.normal()), "k": -1, "a2": 0})
        return rows

    return draw


CONFIGS = [{"a": 1, "deck": (2, 3)}, {"a": 2, "deck": (4,)}, {"a": 3, "deck": ()}]
TASKS = [(c, i) for c in CONFIGS for i in range(30)]


def run(**kw) -> pd.DataFrame:
    kw.setdefault("progress", False)
    return run_tasks(make_draw(), TASKS, root_seed=123, **kw)


@pytest.fixture(scope="module")
def reference() -> pd.DataFrame:
    return run(n_jobs=1, chunk_size=50)


def test_rows_layout(reference):
    assert list(reference.columns) == ["config_key", "index", "a", "deck", "x", "k", "a2"]
    assert len(reference) == 90 + 30  # every third task gives two rows
    assert reference["deck"].iloc[0] == "[2,3]"  # sequences become canonical JSON cells
    assert list(reference["a"].unique()) == [1, 2, 3]  # configs in task order
    first = reference[reference["a"] == 1]
    assert first["index"].is_monotonic_increasing


def test_row_matches_task_seed(reference):
    rng = np.random.default_rng(task_seed(123, CONFIGS[1], 7))
    row = reference[(reference["a"] == 2) & (reference["index"] == 7)].iloc[0]
    assert row["x"] == rng.random()
    assert row["config_key"] == config_key(CONFIGS[1])


def test_tasks_get_different_streams(reference):
    assert reference["x"].nunique() == len(reference)


def test_n_jobs_2_loky_identical(reference):
    pd.testing.assert_frame_equal(run(n_jobs=2, chunk_size=7), reference)


@pytest.mark.parametrize("chunk_size", [1, 4, 1000])
def test_chunk_size_does_not_matter(reference, chunk_size):
    pd.testing.assert_frame_equal(run(n_jobs=1, chunk_size=chunk_size), reference)


def test_threading_backend_identical(reference):
    pd.testing.assert_frame_equal(run(n_jobs=2, backend="threading", chunk_size=5), reference)


def test_dask_backend_identical(reference):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        df = run(n_jobs=-1, backend="dask", chunk_size=8)
    pd.testing.assert_frame_equal(df, reference)


def test_dask_without_client_explains():
    with pytest.raises(RuntimeError, match="Client"):
        run(n_jobs=2, backend="dask")


def test_task_order_does_not_matter(reference):
    shuffled = list(TASKS)
    np.random.default_rng(0).shuffle(shuffled)
    # configs must come first in the same order for the same row order: sort by config, not index
    shuffled.sort(key=lambda t: t[0]["a"])
    df = run_tasks(make_draw(), shuffled, root_seed=123, chunk_size=4, progress=False)
    pd.testing.assert_frame_equal(df, reference)


def test_root_seed_changes_results(reference):
    other = run_tasks(make_draw(), TASKS, root_seed=124, progress=False)
    assert not np.allclose(other["x"], reference["x"])


@pytest.mark.parametrize(
    "kw, name",
    [
        ({"backend": "multiprocessing"}, "backend"),
        ({"n_jobs": 0}, "n_jobs"),
        ({"n_jobs": 1.5}, "n_jobs"),
        ({"chunk_size": 0}, "chunk_size"),
        ({"progress": "yes"}, "progress"),
    ],
)
def test_bad_options_raise(kw, name):
    with pytest.raises(ValueError, match=f"'{name}'"):
        run_tasks(make_draw(), TASKS, root_seed=1, **kw)


def test_bad_backend_lists_allowed():
    with pytest.raises(ValueError, match="loky, threading, sequential, dask"):
        run_tasks(make_draw(), TASKS, root_seed=1, backend="spark")


def test_bad_tasks_raise():
    with pytest.raises(ValueError, match="duplicate"):
        run_tasks(make_draw(), [({"a": 1}, 0), ({"a": 1}, 0)], root_seed=1, progress=False)
    with pytest.raises(ValueError, match="index"):
        run_tasks(make_draw(), [({"a": 1}, -1)], root_seed=1, progress=False)


def test_bad_rows_raise():
    def clash(config, index, rng):
        return {"a": 5}

    def nothing(config, index, rng):
        return []

    def nested(config, index, rng):
        return {"scores": [1, 2]}

    with pytest.raises(ValueError, match="clash"):
        run_tasks(clash, [({"a": 1}, 0)], root_seed=1, progress=False)
    with pytest.raises(TypeError, match="non-empty list"):
        run_tasks(nothing, [({"a": 1}, 0)], root_seed=1, progress=False)
    with pytest.raises(TypeError, match="scores"):
        run_tasks(nested, [({"a": 1}, 0)], root_seed=1, progress=False)


def test_on_chunk_and_warmup():
    seen, warm = [], []
    df = run_tasks(make_draw(), TASKS, root_seed=123, chunk_size=7, progress=False,
                   on_chunk=seen.append, warmup=lambda: warm.append(1))
    assert warm == [1]
    assert len(seen) == 3 * 5  # 30 indices in chunks of 7 -> 5 chunks per config
    assert sum(len(c) for c in seen) == len(df)
    assert all(c["config_key"].nunique() == 1 for c in seen)


def test_empty_tasks():
    df = run_tasks(make_draw(), [], root_seed=1)
    assert len(df) == 0 and list(df.columns) == ["config_key", "index"]


def test_config_key_is_canonical():
    assert config_key({"a": 1, "b": (1, 2)}) == config_key({"b": [1, 2], "a": 1})
    assert config_key({"a": np.int64(1)}) == config_key({"a": 1})
    assert config_key({"a": 1}) != config_key({"a": 2})
    assert re.fullmatch(r"[0-9a-f]{16}", config_key({"a": 1}))


def test_progress_text_lines():
    stream = io.StringIO()  # not a TTY -> text lines
    now = [0.0]
    p = Progress(100, desc="fig2", mode="auto", stream=stream, clock=lambda: now[0])
    assert p.kind == "text"
    for _ in range(20):
        now[0] += 1.0
        p.update(5)
    p.close()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 10  # every 10 %
    assert lines[0] == "fig2: 10/100 tasks (10%) 2.0s elapsed, ~18s left"
    assert lines[-1] == "fig2: 100/100 tasks (100%) 20.0s elapsed"


def test_progress_time_based_and_silent():
    stream = io.StringIO()
    now = [0.0]
    p = Progress(1000, desc="slow", stream=stream, clock=lambda: now[0])
    now[0] = 31.0
    p.update(1)  # 0.1 % done, but 30 s passed
    assert stream.getvalue().startswith("slow: 1/1000 tasks (0%) 31.0s elapsed")
    quiet = io.StringIO()
    q = Progress(10, mode=False, stream=quiet)
    q.update(10)
    q.close()
    assert quiet.getvalue() == ""


def test_progress_bar_when_asked():
    stream = io.StringIO()
    p = Progress(10, desc="bar", mode=True, stream=stream)
    p.update(10)
    p.close()
    assert p.kind == "bar" and "10/10" in stream.getvalue()


def test_a_parallel_run_gives_every_worker_at_least_four_chunks():
    from gameai.core.runner import spread_chunk_size, worker_count

    assert spread_chunk_size(100, 50, 1) == 50  # one process: the experiment's own size
    assert spread_chunk_size(100, 50, 2) == 13  # 8 chunks for 2 workers
    assert spread_chunk_size(1_000_000, 50, 16) == 50  # never larger than asked
    assert spread_chunk_size(3, 50, 16) == 1
    assert worker_count(1, "loky") == 1 and worker_count(4, "sequential") == 1
    assert worker_count(2, "loky") == 2 and worker_count(3, "threading") == 3


def test_chunks_shrink_towards_the_end_of_a_run_so_the_workers_finish_together():
    from gameai.core.runner import _make_chunks, chunk_lengths

    lengths = chunk_lengths([518], 50, 16)
    assert lengths[0] == 9 and lengths[-1] == 1 and sum(lengths) == 518
    assert lengths == sorted(lengths, reverse=True)
    assert chunk_lengths([518], 50, 1) == [50] * 10 + [18]  # one process: the experiment's size
    assert chunk_lengths([3, 5], 2, 1) == [2, 1, 2, 2, 1]  # no chunk crosses a config's run
    with pytest.raises(ValueError, match="chunk_size"):
        chunk_lengths([3], 0, 1)
    # the runner cuts its chunks as the planner counts them: two configs, a gap in one
    tasks = [({"a": 1}, i) for i in range(40)] + [({"a": 2}, i) for i in (*range(10), *range(12, 30))]
    chunks = _make_chunks(tasks, 50, 4)
    assert [len(c.indices) for c in chunks] == chunk_lengths([40, 10, 18], 50, 4)
    assert [i for c in chunks for i in c.indices] == [i for _, i in tasks]
    assert all(c.indices == tuple(range(c.indices[0], c.indices[-1] + 1)) for c in chunks)


def test_smaller_chunks_give_the_same_rows(reference):
    chunks = []
    df = run_tasks(make_draw(), TASKS, root_seed=123, n_jobs=2, backend="threading", chunk_size=1000,
                   progress=False, on_chunk=chunks.append)
    assert len(chunks) >= 8  # not one chunk per config: four per worker at least
    pd.testing.assert_frame_equal(df, reference)


def test_the_dry_runs_wall_time_schedules_the_chunks_as_the_run_would():
    from gameai.core.store import wall_hours

    row = {"compute": 40, "task_seconds": 90.0, "missing": [20, 20], "chunk_size": 10}
    assert wall_hours([row], 1) == pytest.approx(40 * 90 / 3600)  # one worker: the core time
    # two workers: chunks of 5 shrinking to 1, half the core time each
    assert wall_hours([row], 2) == pytest.approx(20 * 90 / 3600)
    # three workers: chunks of 4 shrinking to 1: 14 tasks' time, within a task of 40 / 3 (one
    # chunk size for the run, ten chunks of 4, would leave a tail: 16)
    assert wall_hours([row], 3) == pytest.approx(14 * 90 / 3600)
    assert wall_hours([row, {**row, "task_seconds": None}], 2) is None  # unknown cost
    assert wall_hours([{**row, "compute": 0, "task_seconds": None}], 2) == 0
