"""Issue 29: ``verify`` shows progress and can be bounded in time; manifests name the code that
ran (``source_hash``, and the diff's hash when the tree is dirty); a verification can be recorded
in a manifest without touching its rows."""

from __future__ import annotations

import hashlib
import io
import json
import multiprocessing as mp
import subprocess

import pytest

from gameai.core import jit, store
from gameai.core.store import (Experiment, FolderBusy, load_or_run, paths, record_verified,
                               verify)


def play(config, index, rng):
    return {"x": float(rng.random()), "score": int(rng.integers(10))}


def make(fn=play, **kw) -> Experiment:
    base = dict(chapter="toy", name="fig1", fn=fn, configs=[{"a": a} for a in range(4)], n=10,
                seed=7, version="1", params={"budget": 5}, chunk_size=3)
    base.update(kw)
    return Experiment(**base)


def computed(tmp_path, exp=None, wall=None):
    exp = exp or make()
    load_or_run(exp, data_dir=tmp_path, progress=False)
    if wall is not None:  # what the manifest says the run cost
        m = paths(exp, tmp_path)["manifest"]
        manifest = json.loads(m.read_text())
        manifest.update(wall_time_s=wall, n_jobs=1)
        manifest.pop("core_seconds", None)  # costed from the wall time, as an older manifest
        m.write_text(json.dumps(manifest))
    return exp


def recording(calls):
    def fn(config, index, rng):
        calls.append((config["a"], index))
        return play(config, index, rng)
    return fn


def test_the_sample_runs_round_robin_over_the_configs(tmp_path):
    exp = computed(tmp_path)
    calls: list = []
    out = verify(make(recording(calls)), tmp_path, per_config=2)
    assert out["checked"] == 8 and out["mismatched"] == 0
    assert set(out) == {"checked", "mismatched", "keys", "examples", "damaged", "core_seconds",
                        "configs_checked", "configs"}
    bounded = verify(make(), tmp_path, per_config=2, max_seconds=1e6)
    assert (bounded["checked"], bounded["sampled"], bounded["skipped"], bounded["note"]) == \
        (8, 8, 0, "")
    # the first sampled task of every config, then the second of every config
    assert calls == [(0, 0), (1, 0), (2, 0), (3, 0), (0, 5), (1, 5), (2, 5), (3, 5)]


def test_a_time_bound_cuts_the_sample_by_the_recorded_time_per_task(tmp_path):
    # 40 tasks in 400 s on one core: 10 s per task; 25 s allow 2 tasks
    computed(tmp_path, wall=400.0)
    calls: list = []
    out = verify(make(recording(calls)), tmp_path, per_config=2, max_seconds=25)
    assert calls == [(0, 0), (1, 0)]  # two configs covered, not two tasks of one
    assert (out["checked"], out["sampled"], out["skipped"]) == (2, 8, 6)
    assert "2 of 8 sampled tasks" in out["note"] and "10.0 s" in out["note"]


def test_an_experiment_whose_single_task_exceeds_the_bound_is_skipped(tmp_path):
    computed(tmp_path, wall=40 * 720.0)  # 12 min per task, as tarok's sessions
    calls: list = []
    announced: list = []
    out = verify(make(recording(calls)), tmp_path, per_config=1, max_seconds=60,
                 announce=announced.append)
    assert calls == [] and announced == []
    assert (out["checked"], out["sampled"], out["skipped"]) == (0, 4, 4)
    assert "skipped" in out["note"] and "12 min" in out["note"]


def test_no_task_starts_once_the_time_is_spent(tmp_path):
    computed(tmp_path)  # no usable estimate: the clock alone bounds it
    now = [0.0]
    calls: list = []

    def slow(config, index, rng):
        calls.append(index)
        now[0] += 7.0  # each task takes 7 "seconds"
        return play(config, index, rng)

    out = verify(make(slow), tmp_path, per_config=2, max_seconds=20, clock=lambda: now[0])
    assert len(calls) == 3  # started at 0, 7 and 14 s; none at 21 s
    assert (out["checked"], out["skipped"]) == (3, 5)
    assert "reached after 3 of 8" in out["note"]


@pytest.mark.parametrize("bad", [0, -1, float("inf"), float("nan"), True, "10"])
def test_a_bad_time_bound_is_refused(tmp_path, bad):
    exp = computed(tmp_path)
    with pytest.raises(ValueError, match="max_seconds"):
        verify(exp, tmp_path, max_seconds=bad)


def test_verify_shows_progress_and_announces_the_work(tmp_path, monkeypatch):
    computed(tmp_path, wall=40.0)
    stream = io.StringIO()
    real = store.Progress
    monkeypatch.setattr(store, "Progress",
                        lambda **kw: real(**{**kw, "stream": stream, "every_fraction": 0.25}))
    announced: list = []
    verify(make(), tmp_path, per_config=2, progress="auto", announce=announced.append)
    assert announced == ["fig1: recomputing 8 task(s), about 8.0 s by its manifest"]
    lines = stream.getvalue().splitlines()
    assert lines and lines[-1].startswith("verify toy/fig1: 8/8 tasks (100%)")
    assert len(lines) >= 3  # it reports while it computes, not only at the end


def test_a_mismatch_is_still_found_under_a_bound(tmp_path):
    computed(tmp_path, wall=40.0)

    def changed(config, index, rng):
        row = play(config, index, rng)
        row["score"] += config["a"] == 1
        return row

    out = verify(make(changed), tmp_path, per_config=1, max_seconds=100)
    assert out["checked"] == 4 and out["mismatched"] == 1 and len(out["keys"]) == 1


# --------------------------------------------------------------------------- provenance


def test_a_new_manifest_names_the_source_tree_that_ran(tmp_path):
    exp = computed(tmp_path)
    m = json.loads(paths(exp, tmp_path)["manifest"].read_text())
    assert m["source_hash"] == jit.loaded_source_hash()
    assert len(m["source_hash"]) == 16


def test_manifests_hash_the_whole_source_and_numba_only_the_engines():
    import gameai

    assert jit.loaded_source_hash() == jit.source_hash()  # an edit to a report shows in manifests
    assert gameai.NUMBA_CACHE_DIR.name == jit.engine_hash() != jit.loaded_source_hash()


def _repo(tmp_path):
    """A git repository with a src/ file, for the dirty-tree fields."""
    def git(*args):
        return subprocess.run(["git", *args], cwd=tmp_path, capture_output=True, text=True,
                              check=True).stdout
    git("init", "-q")
    git("config", "user.email", "t@example.org")
    git("config", "user.name", "t")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "code.py").write_text("X = 1\n")
    (tmp_path / "notes.md").write_text("notes\n")
    git("add", ".")
    git("commit", "-qm", "init")
    return git


def _identity(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "__file__", str(tmp_path / "src" / "code.py"))

    def git(*args):
        res = subprocess.run(["git", *args], cwd=tmp_path, capture_output=True, text=True)
        return res.stdout.strip() if res.returncode == 0 else None

    porcelain = git("status", "--porcelain", "--untracked-files=no", "--", ":(top)",
                    ":(top,exclude)data")
    return store._code_identity(git, porcelain)


def test_a_clean_tree_records_no_diff(tmp_path, monkeypatch):
    _repo(tmp_path)
    ident = _identity(tmp_path, monkeypatch)
    assert set(ident) == {"source_hash"}


def test_a_dirty_tree_records_the_hash_of_the_diff_and_the_paths(tmp_path, monkeypatch):
    _repo(tmp_path)
    (tmp_path / "src" / "code.py").write_text("X = 2\n")
    (tmp_path / "notes.md").write_text("changed\n")
    ident = _identity(tmp_path, monkeypatch)
    diff = subprocess.run(["git", "diff", "HEAD", "--binary", "--", "src"], cwd=tmp_path,
                          capture_output=True).stdout
    assert ident["git_diff_sha256"] == hashlib.sha256(diff).hexdigest()
    assert ident["git_dirty_paths"] == ["notes.md", "src/code.py"]
    # another change to the code gives another hash; the same change, the same hash
    (tmp_path / "src" / "code.py").write_text("X = 3\n")
    assert _identity(tmp_path, monkeypatch)["git_diff_sha256"] != ident["git_diff_sha256"]
    (tmp_path / "src" / "code.py").write_text("X = 2\n")
    assert _identity(tmp_path, monkeypatch)["git_diff_sha256"] == ident["git_diff_sha256"]


# --------------------------------------------------------------------------- recording a check


def test_a_verification_is_recorded_in_the_manifest_and_nothing_else_changes(tmp_path):
    exp = computed(tmp_path)
    p = paths(exp, tmp_path)
    before_csv, before = p["csv"].read_bytes(), json.loads(p["manifest"].read_text())
    out = verify(exp, tmp_path, per_config=1)
    entry = record_verified(exp, tmp_path, out, per_config=1)
    after = json.loads(p["manifest"].read_text())
    assert p["csv"].read_bytes() == before_csv
    assert {k: v for k, v in after.items() if k != "verified"} == before
    assert after["verified"] == [entry]
    assert entry["checked"] == entry["sampled"] == 4 and entry["mismatched"] == 0
    assert entry["source_hash"] == jit.loaded_source_hash() and "git_commit" in entry
    assert entry["per_config"] == 1 and entry["date"]
    record_verified(exp, tmp_path, out, per_config=1)  # a second check is added, not replacing
    assert len(json.loads(p["manifest"].read_text())["verified"]) == 2
    # the manifest still describes the file: a read trusts it, a run computes nothing
    calls: list = []
    load_or_run(make(recording(calls)), data_dir=tmp_path, progress=False)
    assert calls == []


def test_a_later_run_keeps_the_record_of_earlier_checks(tmp_path):
    exp = computed(tmp_path)
    record_verified(exp, tmp_path, verify(exp, tmp_path, per_config=1), per_config=1)
    load_or_run(make(n=12), data_dir=tmp_path, progress=False)  # computes 8 new tasks
    m = json.loads(paths(exp, tmp_path)["manifest"].read_text())
    assert m["n"] == 12 and len(m["verified"]) == 1


def test_recording_is_refused_while_a_run_holds_the_folder(tmp_path):
    exp = computed(tmp_path)
    out = verify(exp, tmp_path, per_config=1)
    before = paths(exp, tmp_path)["manifest"].read_bytes()
    ready, release = mp.Event(), mp.Event()
    holder = mp.get_context("fork").Process(target=_hold, args=(tmp_path / "toy", ready, release))
    holder.start()
    try:
        assert ready.wait(30)
        with pytest.raises(FolderBusy):
            record_verified(exp, tmp_path, out, per_config=1)
    finally:
        release.set()
        holder.join(30)
    assert paths(exp, tmp_path)["manifest"].read_bytes() == before


def _hold(folder, ready, release):
    from gameai.core.lock import folder_lock

    with folder_lock(folder):
        ready.set()
        release.wait(30)


# --------------------------------------------------------------------------- a check's cost


def timed(seconds_per_task: float, now: list):
    def fn(config, index, rng):
        now[0] += seconds_per_task
        return play(config, index, rng)
    return fn


def test_a_check_times_its_tasks_and_the_configs_they_cover(tmp_path):
    computed(tmp_path)
    now = [0.0]
    out = verify(make(timed(7.0, now)), tmp_path, per_config=2, clock=lambda: now[0])
    assert out["core_seconds"] == 56.0  # 8 tasks of 7 s on one core
    assert (out["configs_checked"], out["configs"]) == (4, 4)
    cut = verify(make(timed(7.0, now)), tmp_path, per_config=1, max_seconds=10,
                 clock=lambda: now[0])
    assert cut["checked"] == 2 and (cut["configs_checked"], cut["configs"]) == (2, 4)


def test_the_warm_up_is_not_timed(tmp_path):
    computed(tmp_path)
    now = [0.0]

    def warmup():
        now[0] += 100.0

    out = verify(make(timed(1.0, now), warmup=warmup), tmp_path, per_config=1,
                 clock=lambda: now[0])
    assert now[0] == 104.0 and out["core_seconds"] == 4.0


def _check(tmp_path, exp, seconds_per_task, per_config=1, **kw):
    now = [0.0]
    out = verify(make(timed(seconds_per_task, now), **kw), tmp_path, per_config=per_config,
                 clock=lambda: now[0])
    return out, record_verified(exp, tmp_path, out, per_config=per_config)


def test_the_plan_costs_a_task_at_the_newest_check_that_timed_every_config(tmp_path):
    exp = computed(tmp_path, wall=400.0)  # 40 tasks: 10 core-seconds each by the run
    assert store.plan([exp], tmp_path / "empty", costs_from=tmp_path)[0]["task_seconds"] == 10.0
    out, entry = _check(tmp_path, exp, 2.5, per_config=2)  # 8 tasks: too few to stand
    assert entry["core_seconds"] == 20.0 and entry["configs_checked"] == entry["configs"] == 4
    assert entry["cpu"]
    assert store.plan([exp], tmp_path / "empty", costs_from=tmp_path)[0]["task_seconds"] == 10.0
    _check(tmp_path, exp, 2.5, per_config=3)  # 12 tasks
    row = store.plan([exp], tmp_path / "empty", costs_from=tmp_path)[0]
    assert row["task_seconds"] == 2.5 and row["core_hours"] == pytest.approx(40 * 2.5 / 3600)
    assert row["checked"] == json.loads(paths(exp, tmp_path)["manifest"].read_text())[
        "verified"][-1]["date"]


def test_a_check_that_missed_configs_or_differed_does_not_cost_the_plan(tmp_path):
    exp = computed(tmp_path, wall=400.0)
    now = [0.0]
    cut = verify(make(timed(7.0, now)), tmp_path, per_config=1, max_seconds=10,
                 clock=lambda: now[0])
    record_verified(exp, tmp_path, cut, per_config=1)  # 2 of 4 configs
    assert store.plan([exp], tmp_path / "e", costs_from=tmp_path)[0]["task_seconds"] == 10.0

    def other(config, index, rng):
        now[0] += 1.0
        return {"x": 0.5, "score": 3}  # not the stored rows

    out = verify(make(other), tmp_path, per_config=3, clock=lambda: now[0])
    assert out["mismatched"] == 12
    record_verified(exp, tmp_path, out, per_config=1)
    assert store.plan([exp], tmp_path / "e", costs_from=tmp_path)[0]["task_seconds"] == 10.0


def test_a_run_after_the_check_costs_the_plan_again(tmp_path):
    exp = computed(tmp_path, wall=400.0)
    _check(tmp_path, exp, 2.5, per_config=3)
    assert store.plan([exp], tmp_path / "e", costs_from=tmp_path)[0]["task_seconds"] == 2.5
    m = paths(exp, tmp_path)["manifest"]
    manifest = json.loads(m.read_text())
    manifest["updated"] = "9999-01-01T00:00:00+00:00"  # a later run
    m.write_text(json.dumps(manifest))
    row = store.plan([exp], tmp_path / "e", costs_from=tmp_path)[0]
    assert row["task_seconds"] == 10.0 and row["checked"] is None


def test_a_check_does_not_cost_tasks_too_short_for_its_overhead(tmp_path):
    """Tasks of under 0.1 core-seconds by the run keep the run's cost: a check's per-task
    overhead and set-up would swamp them."""
    exp = computed(tmp_path, wall=2.0)  # 40 tasks of 0.05 s
    _check(tmp_path, exp, 0.2, per_config=3)
    assert store.plan([exp], tmp_path / "e", costs_from=tmp_path)[0]["task_seconds"] == 0.05
