"""Issue 29: huge experiments are not listed whole in memory, a cut row is counted once and
consistently, a garbled manifest keeps its history as "unknown", verify fails on damage, and
``dry_run`` computes nothing."""

from __future__ import annotations

import json

import pytest

from gameai.core import store
from gameai.core.csvcheck import read_checked
from gameai.core.store import (Experiment, dry_run, load_or_run, paths, plan, status, verify,
                               wall_time)


def one_row(config, index, rng):
    return {"score": int(rng.integers(1000))}


def make(n=6, name="fig", chunk_size=2) -> Experiment:
    return Experiment(chapter="toy", name=name, fn=one_row, configs=[{"a": 1}, {"a": 2}], n=n,
                      seed=3, version="1", chunk_size=chunk_size)


def test_missing_tasks_are_generated_in_batches_with_the_same_files(tmp_path, monkeypatch):
    whole = tmp_path / "whole"
    load_or_run(make(n=11), data_dir=whole, progress=False)
    sizes = []
    real = store.run_tasks

    def spy(fn, tasks, **kw):
        sizes.append(len(tasks))
        assert kw["keep_rows"] is False  # the store reads rows back from the saved chunks
        return real(fn, tasks, **kw)

    monkeypatch.setattr(store, "TASK_BATCH", 4)
    monkeypatch.setattr(store, "run_tasks", spy)
    batched = tmp_path / "batched"
    load_or_run(make(n=11), data_dir=batched, progress=False)
    assert sizes == [4, 4, 4, 4, 4, 2]
    csv = paths(make(), whole)["csv"].relative_to(whole)
    assert (batched / csv).read_bytes() == (whole / csv).read_bytes()


def test_the_task_generator_is_lazy():
    exp = make(n=10**7)
    tasks = store._missing_tasks(exp, {exp.task_key(c): {0} for c in exp.configs})
    assert next(tasks)[1] == 1 and next(tasks)[1] == 2  # nothing listed up front


def test_a_row_cut_in_the_middle_counts_its_task_among_the_dropped(tmp_path, capsys):
    load_or_run(make(), data_dir=tmp_path, progress=False)
    csv = paths(make(), tmp_path)["csv"]
    text = csv.read_text()
    csv.write_text(text[:-2])  # the last task's one row loses its end
    checked = read_checked(csv)
    assert "2 task(s) dropped to be recomputed" in checked.problems
    assert status(make(), tmp_path)["missing"] == 2
    assert "2 task(s) dropped" in capsys.readouterr().err


def test_a_cut_that_leaves_the_task_unknown_says_so(tmp_path):
    load_or_run(make(), data_dir=tmp_path, progress=False)
    csv = paths(make(), tmp_path)["csv"]
    text = csv.read_text()
    csv.write_text(text[: text.rstrip("\n").rfind("\n") + 5])  # inside the last row's key
    assert "the cut-off row's task is lost with it" in read_checked(csv).problems


def test_a_garbled_manifest_is_moved_aside_and_its_history_recorded_unknown(tmp_path, capsys):
    load_or_run(make(), data_dir=tmp_path, progress=False)
    manifest = paths(make(), tmp_path)["manifest"]
    manifest.write_text('{"wall_time_s": 3600, "created": "2020')  # cut short
    capsys.readouterr()
    status(make(), tmp_path)  # reading only: reported, left in place
    assert "moves it aside" in capsys.readouterr().err and manifest.exists()
    load_or_run(make(n=8), data_dir=tmp_path, progress=False)
    aside = manifest.with_name("fig.json.damaged")
    assert aside.read_text() == '{"wall_time_s": 3600, "created": "2020'
    new = json.loads(manifest.read_text())
    assert new["wall_time_s"] == "unknown" and new["created"] == "unknown"
    assert new["damaged_manifests"] == ["fig.json.damaged"] and new["rows_in_file"] == 16
    assert wall_time(make(n=8), tmp_path) is None
    load_or_run(make(n=9), data_dir=tmp_path, progress=False)  # stays unknown, not 0 + this run
    assert json.loads(manifest.read_text())["wall_time_s"] == "unknown"


@pytest.mark.parametrize("damage", ["cut", "shape", "utf8"])
def test_verify_names_damaged_files(tmp_path, damage):
    load_or_run(make(), data_dir=tmp_path, progress=False)
    csv = paths(make(), tmp_path)["csv"]
    text = csv.read_text()
    if damage == "cut":
        csv.write_text(text[:-2])
    elif damage == "shape":
        lines = text.splitlines(keepends=True)
        csv.write_text("".join(lines[:3] + ["0,1,2,3\n"] + lines[3:]))
    else:
        csv.write_bytes(text.encode()[:20] + b"\xff\xfe" + text.encode()[20:])
    out = verify(make(), tmp_path, per_config=2)
    assert [path for path, _ in out["damaged"]] == [csv]
    if damage == "utf8":
        assert out["checked"] == 0 and "is not UTF-8 text" in out["damaged"][0][1]


def test_dry_run_computes_and_writes_nothing_and_plans_with_stored_wall_times(tmp_path):
    load_or_run(make(n=4), data_dir=tmp_path, progress=False)
    manifest = paths(make(), tmp_path)["manifest"]
    m = json.loads(manifest.read_text())
    m.update(wall_time_s=3600.0, n_jobs=1)  # 3600 s for 8 tasks on one core: 450 s a task
    m.pop("core_seconds", None)  # costed from the wall time, as an older manifest
    manifest.write_text(json.dumps(m))
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    with dry_run() as asked:
        frame = None
        with pytest.raises(store.MissingResults):
            frame = load_or_run(make(n=10), data_dir=tmp_path, progress=False)
    assert frame is None and [e.n for e in asked] == [10]
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    (row,) = plan(asked, tmp_path)
    assert (row["tasks"], row["cached"], row["copied"], row["compute"]) == (20, 8, 0, 12)
    assert row["core_hours"] == pytest.approx(12 * 450 / 3600)


def test_plan_counts_tasks_found_in_the_seed_folder_as_copied(tmp_path):
    load_or_run(make(n=4), data_dir=tmp_path / "committed", progress=False)
    (row,) = plan([make(n=5)], tmp_path / "fresh", seed_from=tmp_path / "committed")
    assert (row["tasks"], row["cached"], row["copied"], row["compute"]) == (10, 0, 8, 2)


def test_core_seconds_per_task_come_from_the_manifest_and_are_none_before_any_run(tmp_path):
    assert store.core_seconds_per_task(make(), tmp_path) is None
    load_or_run(make(n=4), data_dir=tmp_path, progress=False)
    manifest = paths(make(), tmp_path)["manifest"]
    m = json.loads(manifest.read_text())
    m.update(wall_time_s=900.0, n_jobs=2, cpu_count=2)  # 900 s on 2 cores for 8 tasks
    m.pop("core_seconds", None)  # costed from the wall time, as an older manifest
    manifest.write_text(json.dumps(m))
    assert store.core_seconds_per_task(make(), tmp_path) == pytest.approx(900 * 2 / 8)


def test_a_new_experiment_is_costed_like_its_sibling_scaled(tmp_path):
    from dataclasses import replace

    load_or_run(make(n=4), data_dir=tmp_path, progress=False)
    manifest = paths(make(), tmp_path)["manifest"]
    m = json.loads(manifest.read_text())
    m.update(wall_time_s=3600.0, n_jobs=1)  # 450 s a task
    m.pop("core_seconds", None)  # costed from the wall time, as an older manifest
    manifest.write_text(json.dumps(m))
    bigger = replace(make(n=2, name="fig_b3000"), cost_like=("fig", 10.0))
    (row,) = plan([bigger], tmp_path / "fresh", costs_from=tmp_path)
    assert row["compute"] == 4 and row["task_seconds"] == pytest.approx(4500)
    assert row["core_hours"] == pytest.approx(4 * 4500 / 3600)
    (unknown,) = plan([make(n=2, name="other")], tmp_path / "fresh", costs_from=tmp_path)
    assert unknown["core_hours"] is None  # nothing alike recorded
