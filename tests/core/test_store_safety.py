"""The store never trusts a damaged file, never writes when it may not compute, locks its folder
and can take finished tasks from another folder (issue: keep committed results safe)."""

from __future__ import annotations

import json
import multiprocessing as mp
import time

import pandas as pd
import pytest

from gameai.core.lock import FolderBusy, folder_lock
from gameai.core.store import (Experiment, MissingResults, forget, load_or_run, paths, status,
                               wall_time)


def play(config, index, rng):
    """Two rows per task, so that a half-kept task would show."""
    return [{"turn": t, "score": int(rng.integers(10)), "x": float(rng.random())} for t in (0, 1)]


def make(n=6, **kw) -> Experiment:
    return Experiment(chapter="toy", name="fig", fn=play, configs=[{"a": 1}, {"a": 2}], n=n,
                      seed=3, version="1", chunk_size=2, **kw)


def run(data_dir, **kw):
    kw.setdefault("progress", False)
    return load_or_run(make(kw.pop("n", 6)), data_dir=data_dir, **kw)


@pytest.fixture
def stored(tmp_path):
    """A finished experiment and its frame."""
    return tmp_path, run(tmp_path)


def test_a_truncated_last_row_is_recomputed_not_trusted(stored, capsys):
    data, whole = stored
    csv = paths(make(), data)["csv"]
    text = csv.read_text()
    csv.write_text(text[:-7])  # cut inside the last row's fields
    assert status(make(), data)["done"] == 11  # its task is missing, not "cached"
    err = capsys.readouterr().err
    assert str(csv) in err and "cut off" in err
    with pytest.raises(MissingResults):
        run(data, compute=False)
    again = run(data)
    pd.testing.assert_frame_equal(again, whole)
    assert csv.read_text() == text
    assert again["score"].dtype == "int64"


def test_rows_lost_at_a_line_boundary_are_caught_by_the_manifest(stored, capsys):
    data, whole = stored
    csv = paths(make(), data)["csv"]
    lines = csv.read_text().splitlines(keepends=True)
    csv.write_text("".join(lines[:-1]))  # the last task loses its second row only
    assert status(make(), data)["done"] == 11
    assert "manifest says 24" in capsys.readouterr().err
    pd.testing.assert_frame_equal(run(data), whole)


def test_a_file_of_garbage_bytes_is_named_moved_aside_and_recomputed(stored, capsys):
    data, whole = stored
    csv = paths(make(), data)["csv"]
    csv.write_bytes(bytes(range(256)) * 4)
    assert status(make(), data)["done"] == 0
    assert str(csv) in capsys.readouterr().err
    pd.testing.assert_frame_equal(run(data), whole)
    assert csv.with_name(csv.name + ".bad").exists()


def test_a_damaged_cell_is_caught_by_the_column_types(stored, capsys):
    data, whole = stored
    csv = paths(make(), data)["csv"]
    lines = csv.read_text().splitlines(keepends=True)
    fields = lines[3].split(",")
    fields[3] = "x7"  # score: not an int
    lines[3] = ",".join(fields)
    csv.write_text("".join(lines))
    assert status(make(), data)["done"] == 11
    assert "column types" in capsys.readouterr().err
    pd.testing.assert_frame_equal(run(data), whole)


def test_a_truncated_chunk_is_named_and_recomputed(tmp_path, capsys):
    class Stop(Exception):
        pass

    def stop_after_two_chunks(config, index, rng):
        if index >= 4:
            raise Stop
        return play(config, index, rng)

    exp = make()
    with pytest.raises(Stop):
        load_or_run(Experiment(**{**exp.__dict__, "fn": stop_after_two_chunks}), data_dir=tmp_path,
                    progress=False)
    chunk = sorted(paths(exp, tmp_path)["partial"].glob("*.csv"))[0]
    chunk.write_text(chunk.read_text()[:-3])
    assert status(exp, tmp_path)["done"] == 2
    assert chunk.name in capsys.readouterr().err
    pd.testing.assert_frame_equal(run(tmp_path), run(tmp_path / "fresh"))


def test_a_garbled_manifest_is_reported_and_rewritten(stored, capsys):
    data, whole = stored
    manifest = paths(make(), data)["manifest"]
    manifest.write_text("{ not json")
    pd.testing.assert_frame_equal(run(data, compute=False), whole)
    assert manifest.read_text() == "{ not json"  # compute=False never writes
    assert str(manifest) in capsys.readouterr().err
    run(data)
    assert json.loads(manifest.read_text())["rows"] == 24


def test_compute_false_never_writes_even_with_leftover_chunks(tmp_path):
    exp = make()
    run(tmp_path)
    p = paths(exp, tmp_path)
    p["partial"].mkdir(parents=True)
    (p["partial"] / p["csv"].name).write_bytes(p["csv"].read_bytes())
    before = {f: f.read_bytes() for f in tmp_path.rglob("*") if f.is_file()}
    run(tmp_path, compute=False)
    assert {f: f.read_bytes() for f in tmp_path.rglob("*") if f.is_file()} == before


def test_wall_time_of_an_interrupted_run_is_kept(tmp_path):
    class Stop(Exception):
        pass

    def slow_then_stop(config, index, rng):
        if config["a"] == 2:
            raise Stop
        time.sleep(0.05)
        return play(config, index, rng)

    exp = make()
    with pytest.raises(Stop):
        load_or_run(Experiment(**{**exp.__dict__, "fn": slow_then_stop}), data_dir=tmp_path,
                    progress=False)
    assert wall_time(exp, tmp_path) >= 0.3  # the interrupted run's time, before any manifest
    run(tmp_path)
    assert json.loads(paths(exp, tmp_path)["manifest"].read_text())["wall_time_s"] >= 0.3
    assert wall_time(exp, tmp_path) >= 0.3


def test_seed_from_copies_finished_tasks_and_leaves_the_source_alone(stored, tmp_path_factory):
    data, whole = stored
    before = {f: f.read_bytes() for f in data.rglob("*") if f.is_file()}
    other = tmp_path_factory.mktemp("rerun")
    calls = []

    def counting(config, index, rng):
        calls.append(index)
        return play(config, index, rng)

    bigger = Experiment(**{**make(n=8).__dict__, "fn": counting})
    got = load_or_run(bigger, data_dir=other, seed_from=data, progress=False)
    assert sorted(calls) == [6, 6, 7, 7]  # only the tasks the source does not hold
    pd.testing.assert_frame_equal(got, run(tmp_path_factory.mktemp("fresh"), n=8))
    assert {f: f.read_bytes() for f in data.rglob("*") if f.is_file() and f.name != ".lock"} == \
        {f: b for f, b in before.items() if f.name != ".lock"}


def test_forget_keeps_the_manifest_in_step_with_the_file(stored, capsys):
    data, _ = stored
    forget(make(), data, [make().task_key({"a": 1})])
    assert status(make(), data)["done"] == 6
    assert "manifest says" not in capsys.readouterr().err


def _hold(folder, ready, release):
    with folder_lock(folder):
        ready.set()
        release.wait(20)


def test_a_second_process_is_refused_with_the_holder_named(tmp_path):
    ctx = mp.get_context("spawn")
    ready, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold, args=(tmp_path / "toy", ready, release))
    holder.start()
    try:
        assert ready.wait(20)
        with pytest.raises(FolderBusy, match=f"pid {holder.pid}"):
            run(tmp_path)
    finally:
        release.set()
        holder.join(20)
    run(tmp_path)  # released when the holder ends


def test_the_lock_is_reentrant_in_one_process(tmp_path):
    with folder_lock(tmp_path / "toy"):
        run(tmp_path)
