"""Issue 45: a plan made while a run is interrupted is costed from that run's chunks too (the
core-seconds and tasks recorded beside them), pooled with the finished runs' manifest."""

from __future__ import annotations

import json

import pytest

from gameai.core import store
from gameai.core.store import Experiment, load_or_run, paths, plan


class Boom(RuntimeError):
    pass


def failing_after(calls: list, limit: int | None):
    def play(config, index, rng):
        if limit is not None and len(calls) >= limit:
            raise Boom("interrupted")
        calls.append(index)
        return {"score": int(rng.integers(10))}

    return play


def make(fn, n=10) -> Experiment:
    return Experiment(chapter="toy", name="slow", fn=fn, configs=[{"a": 1}], n=n, seed=5,
                      version="1", chunk_size=2)


def interrupted(tmp_path, limit=5):
    with pytest.raises(Boom):
        load_or_run(make(failing_after([], limit)), data_dir=tmp_path, n_jobs=1, progress=False)
    return paths(make(failing_after([], None)), tmp_path)["partial"]


def test_an_interrupted_run_records_its_core_seconds_and_tasks_beside_its_chunks(tmp_path):
    partial = interrupted(tmp_path)
    record = json.loads((partial / store.WALL_FILE).read_text())
    assert record["tasks"] == 4  # chunks 0-2 and 2-4 saved; the fifth task's chunk failed
    assert record["core_seconds"] == pytest.approx(record["wall_time_s"])  # one core
    assert store._partial_cost(partial) == (record["core_seconds"], 4)


def test_a_plan_pools_the_manifests_runs_with_the_interrupted_ones(tmp_path):
    load_or_run(make(failing_after([], None), n=4), data_dir=tmp_path, n_jobs=1, progress=False)
    manifest = paths(make(failing_after([], None)), tmp_path)["manifest"]
    m = json.loads(manifest.read_text())
    m.update(wall_time_s=400.0, n_jobs=1)  # 4 tasks, 100 core-seconds each
    m.pop("core_seconds", None)  # costed from the wall time, as an older manifest
    manifest.write_text(json.dumps(m))
    partial = paths(make(failing_after([], None)), tmp_path)["partial"]
    partial.mkdir(parents=True)
    (partial / store.WALL_FILE).write_text(json.dumps(
        {"wall_time_s": 100.0, "core_seconds": 200.0, "tasks": 4}))  # 4 tasks, 50 s each
    (row,) = plan([make(failing_after([], None), n=10)], tmp_path)
    assert row["task_seconds"] == pytest.approx((400 + 200) / (4 + 4))
    assert store.core_seconds_per_task(make(failing_after([], None)), tmp_path) == pytest.approx(75)


def test_a_record_without_core_seconds_leaves_the_manifests_estimate_alone(tmp_path):
    partial = interrupted(tmp_path)
    (partial / store.WALL_FILE).write_text(json.dumps({"wall_time_s": 10.0}))  # an older run's
    assert store._partial_cost(partial) is None
    assert store.core_seconds_per_task(make(failing_after([], None)), tmp_path) is None
    # a run resumed over it cannot know the older run's cores: it records its wall time only
    with pytest.raises(Boom):
        load_or_run(make(failing_after([], 2)), data_dir=tmp_path, n_jobs=1, progress=False)
    record = json.loads((partial / store.WALL_FILE).read_text())
    assert "core_seconds" not in record and record["wall_time_s"] > 10.0


def test_a_dask_run_records_no_core_seconds():
    assert store._cores_used("dask", 16, 2) is None
    assert store._cores_used("loky", 1, 16) == 1
    assert store._cores_used("loky", 4, 2) == 2
    assert store._cores_used("loky", -1, 16) == 16


def test_a_new_experiment_is_costed_from_its_nearest_measured_sibling(tmp_path):
    from dataclasses import replace

    def measured(name, n, wall):
        exp = replace(make(failing_after([], None), n=n), name=name)
        load_or_run(exp, data_dir=tmp_path, n_jobs=1, progress=False)
        manifest = paths(exp, tmp_path)["manifest"]
        m = json.loads(manifest.read_text())
        m.update(wall_time_s=wall, n_jobs=1)
        m.pop("core_seconds", None)  # costed from the wall time, as an older manifest
        manifest.write_text(json.dumps(m))

    measured("slow_b300", 2, 20.0)  # 10 s a task
    candidates = (("slow_b3000", 10 / 3), ("slow_b1000", 10.0), ("slow_b300", 100 / 3))
    bigger = replace(make(failing_after([], None), n=2), name="slow_b10000",
                     cost_like=candidates)
    (row,) = plan([bigger], tmp_path)
    assert row["task_seconds"] == pytest.approx(10 * 100 / 3)  # the only one measured
    measured("slow_b1000", 2, 50.0)  # 25 s a task: nearer, so it wins
    (row,) = plan([bigger], tmp_path)
    assert row["task_seconds"] == pytest.approx(25 * 10)


def test_each_run_is_costed_at_its_own_number_of_cores(tmp_path):
    exp = make(failing_after([], None), n=4)
    load_or_run(exp, data_dir=tmp_path, n_jobs=1, progress=False)
    manifest = paths(exp, tmp_path)["manifest"]
    m = json.loads(manifest.read_text())
    assert m["core_seconds"] == pytest.approx(m["wall_time_s"], abs=1e-3)  # one core
    # an older manifest: 100 s on 2 cores, no core-seconds recorded
    m.update(wall_time_s=100.0, n_jobs=2, cpu_count=2)
    del m["core_seconds"]
    manifest.write_text(json.dumps(m))
    assert store.recorded_core_seconds(m) == 200.0
    load_or_run(make(failing_after([], None), n=8), data_dir=tmp_path, n_jobs=1, progress=False)
    m = json.loads(manifest.read_text())
    this_run = m["wall_time_s"] - 100.0  # on one core
    assert m["core_seconds"] == pytest.approx(200.0 + this_run, abs=1e-2)
    # not the whole wall time at the last run's single core
    assert store.core_seconds_per_task(exp, tmp_path) == pytest.approx((200 + this_run) / 8, rel=1e-3)


def test_an_unknown_history_records_no_core_seconds():
    assert store.recorded_core_seconds({"wall_time_s": store.UNKNOWN}) is None
    assert store.recorded_core_seconds({"wall_time_s": 5.0, "backend": "dask"}) is None
    assert store.recorded_core_seconds({}) == 0.0
