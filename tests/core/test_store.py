"""The store computes each task once, resumes after an interruption and keeps a manifest."""

from __future__ import annotations

import json

import pandas as pd
import time

import pytest


from gameai.core.store import Experiment, MissingResults, load, load_or_run, paths, status, verify, forget


class Boom(RuntimeError):
    pass


def counting(calls: list, fail_after: int | None = None):
    """An experiment fn that records each task it plays (runs in-process with n_jobs=1)."""

    def play(config, index, rng):
        if fail_after is not None and len(calls) >= fail_after:
            raise Boom(f"interrupted after {fail_after} tasks")
        calls.append((config["a"], index))
        return {"x": float(rng.random()), "score": int(rng.integers(10)), "budget_seen": config["budget"]}

    return play


def make(fn, **kw) -> Experiment:
    base = dict(chapter="toy", name="fig1", fn=fn, configs=[{"a": 1}, {"a": 2, "deck": (1, 2)}],
                n=10, seed=7, version="1", params={"budget": 5}, chunk_size=3)
    base.update(kw)
    return Experiment(**base)


def run(exp, data_dir, **kw):
    kw.setdefault("progress", False)
    return load_or_run(exp, data_dir=data_dir, **kw)


def test_second_run_computes_nothing(tmp_path):
    calls: list = []
    exp = make(counting(calls))
    first = run(exp, tmp_path)
    assert len(calls) == 20 and len(first) == 20
    assert list(first.columns) == ["key", "index", "a", "deck", "x", "score", "budget_seen"]
    assert (first["budget_seen"] == 5).all()  # fn sees the shared params
    assert "budget" not in first.columns  # ...which live in the manifest, not in every row
    calls.clear()
    again = run(make(counting(calls)), tmp_path, compute=False)
    assert calls == []
    pd.testing.assert_frame_equal(again, first)
    assert not paths(exp, tmp_path)["partial"].exists()


def test_resume_after_interruption(tmp_path):
    calls: list = []
    with pytest.raises(Boom):
        run(make(counting(calls, fail_after=7)), tmp_path / "a")
    p = paths(make(counting([])), tmp_path / "a")
    assert not p["csv"].exists()
    assert len(list(p["partial"].glob("*.csv"))) == 2  # chunks 0-3 and 3-6 of config a=1 saved
    assert len(load(make(counting([])), tmp_path / "a")) == 6
    assert status(make(counting([])), tmp_path / "a") == {"done": 6, "total": 20, "missing": 14, "damaged": []}

    calls.clear()
    resumed = run(make(counting(calls)), tmp_path / "a")
    assert len(calls) == 14
    assert (1, 0) not in calls and (1, 6) in calls
    assert not p["partial"].exists() and not p["partial"].parent.exists()

    whole = run(make(counting([])), tmp_path / "b")
    pd.testing.assert_frame_equal(resumed, whole)
    assert p["csv"].read_bytes() == paths(make(counting([])), tmp_path / "b")["csv"].read_bytes()


def test_changing_n_computes_only_new_indices(tmp_path):
    calls: list = []
    run(make(counting(calls), n=5), tmp_path / "a")
    calls.clear()
    more = run(make(counting(calls), n=8), tmp_path / "a")
    assert sorted(calls) == [(a, i) for a in (1, 2) for i in (5, 6, 7)]
    pd.testing.assert_frame_equal(more, run(make(counting([]), n=8), tmp_path / "b"))
    calls.clear()
    fewer = run(make(counting(calls), n=3), tmp_path / "a")
    assert calls == [] and len(fewer) == 6
    pd.testing.assert_frame_equal(fewer, more[more["index"] < 3].reset_index(drop=True))


@pytest.mark.parametrize(
    "change", [{"version": "2"}, {"seed": 8}, {"params": {"budget": 6}}, {"name": "fig1b"}]
)
def test_identity_changes_recompute(tmp_path, change):
    calls: list = []
    first = run(make(counting(calls)), tmp_path)
    calls.clear()
    second = run(make(counting(calls), **change), tmp_path)
    assert len(calls) == 20
    assert set(first["key"]).isdisjoint(second["key"])


def test_changing_one_config_recomputes_only_it(tmp_path):
    calls: list = []
    run(make(counting(calls)), tmp_path)
    calls.clear()
    df = run(make(counting(calls), configs=[{"a": 1}, {"a": 3}]), tmp_path)
    assert {a for a, _ in calls} == {3} and len(calls) == 10
    assert list(df["a"].unique()) == [1, 3]
    manifest = json.loads(paths(make(counting([])), tmp_path)["manifest"].read_text())
    assert manifest["rows"] == 20 and manifest["rows_in_file"] == 30  # old a=2 rows are kept


def test_compute_false_raises_missing(tmp_path):
    with pytest.raises(MissingResults, match=r"20 of 20 tasks .*gameai run toy"):
        run(make(counting([])), tmp_path, compute=False)
    run(make(counting([]), n=4), tmp_path)
    with pytest.raises(MissingResults, match="12 of 20"):
        run(make(counting([])), tmp_path, compute=False)
    assert issubclass(MissingResults, LookupError)


def test_manifest(tmp_path):
    exp = make(counting([]), description="toy figure")
    run(exp, tmp_path)
    m = json.loads(paths(exp, tmp_path)["manifest"].read_text())
    required = {"experiment", "chapter", "description", "version", "root_seed", "params", "configs",
                "n", "rows", "git_commit", "git_dirty", "packages", "cpu_count", "n_jobs", "backend",
                "wall_time_s", "created", "updated"}
    assert required <= set(m)
    assert m["experiment"] == "fig1" and m["root_seed"] == 7 and m["params"] == {"budget": 5}
    assert [c["config"] for c in m["configs"]] == [{"a": 1}, {"a": 2, "deck": [1, 2]}]
    assert [c["key"] for c in m["configs"]] == [exp.task_key(c) for c in exp.configs]
    assert set(m["packages"]) >= {"python", "numpy", "numba", "pandas", "joblib"}
    assert m["rows"] == 20 and m["n"] == 10
    wall = m["wall_time_s"]
    run(make(counting([]), n=12, description="toy figure"), tmp_path)
    m2 = json.loads(paths(exp, tmp_path)["manifest"].read_text())
    assert m2["wall_time_s"] >= wall and m2["created"] == m["created"] and m2["n"] == 12


def test_parallel_store_matches_sequential(tmp_path):
    def play(config, index, rng):
        return {"x": float(rng.random())}

    kw = dict(chapter="toy", name="par", fn=play, configs=[{"a": 1}, {"a": 2}], n=12, seed=3,
              version="1", chunk_size=5)
    seq = run(Experiment(**kw), tmp_path / "a", n_jobs=1)
    par = run(Experiment(**kw), tmp_path / "b", n_jobs=2)
    pd.testing.assert_frame_equal(seq, par)


@pytest.mark.parametrize(
    "kw, name",
    [
        ({"name": "bad name"}, "name"),
        ({"chapter": "../x"}, "chapter"),
        ({"n": -1}, "n"),
        ({"configs": []}, "configs"),
        ({"seed": -2}, "seed"),
        ({"chunk_size": 0}, "chunk_size"),
    ],
)
def test_experiment_validation(kw, name):
    with pytest.raises(ValueError, match=f"'{name}'"):
        make(counting([]), **kw)


def test_experiment_rejects_clashes():
    with pytest.raises(ValueError, match="budget"):
        make(counting([]), configs=[{"a": 1, "budget": 3}])
    with pytest.raises(ValueError, match="twice"):
        make(counting([]), configs=[{"a": 1}, {"a": 1}])


def test_n_zero(tmp_path):
    df = run(make(counting([]), n=0), tmp_path)
    assert len(df) == 0


def test_stale_rows_do_not_change_the_result(tmp_path):
    def v1(config, index, rng):
        return {"score": int(rng.integers(10))}

    def v2(config, index, rng):
        return {"points": int(rng.integers(10)), "x": float(rng.random())}

    kw = dict(chapter="toy", name="stale", configs=[{"a": 1}], n=6, seed=1, chunk_size=4)
    run(Experiment(fn=v1, version="1", **kw), tmp_path / "a")
    mixed = run(Experiment(fn=v2, version="2", **kw), tmp_path / "a")
    fresh = run(Experiment(fn=v2, version="2", **kw), tmp_path / "b")
    pd.testing.assert_frame_equal(mixed, fresh)  # no leftover 'score' column, ints stay ints
    assert mixed["points"].dtype == "int64"
    pd.testing.assert_frame_equal(load(Experiment(fn=v2, version="2", **kw), tmp_path / "a"), fresh)


def test_parallel_run_resumes_after_a_worker_fails(tmp_path):
    flag = tmp_path / "failed-once"

    def flaky(config, index, rng):
        if config["a"] == 2 and index == 9 and not flag.exists():
            flag.touch()
            time.sleep(1.0)  # let the other worker save its chunks first, whatever the load
            raise Boom("worker crashed")
        return {"x": float(rng.random())}

    kw = dict(chapter="toy", name="flaky", fn=flaky, configs=[{"a": 1}, {"a": 2}], n=12, seed=5,
              version="1", chunk_size=4)
    with pytest.raises(Boom):
        run(Experiment(**kw), tmp_path / "a", n_jobs=2)
    exp = Experiment(**kw)
    saved = status(exp, tmp_path / "a")["done"]
    # the failing chunk (a=2, index 9) is never saved
    assert 0 < saved < 24 and flag.exists()
    resumed = run(exp, tmp_path / "a", n_jobs=2)
    pd.testing.assert_frame_equal(resumed, run(exp, tmp_path / "b", n_jobs=1))


def test_verify_recomputes_a_sample_and_catches_rows_the_code_no_longer_gives(tmp_path):
    calls: list = []
    exp = make(counting(calls))
    run(exp, tmp_path)
    calls.clear()
    ok = verify(exp, tmp_path, per_config=3)
    assert ok["core_seconds"] >= 0
    assert {k: v for k, v in ok.items() if k != "core_seconds"} == {
        "checked": 6, "mismatched": 0, "keys": [], "examples": [], "damaged": [],
        "configs_checked": 2, "configs": 2}
    assert len(calls) == 6 and {i for _, i in calls} <= set(range(10))

    def changed(config, index, rng):  # same name and version, different behaviour
        row = counting([])(config, index, rng)
        return {**row, "score": row["score"] + int(index % 3 == 0)}

    bad = verify(make(changed), tmp_path, per_config=4)
    assert bad["checked"] == 8 and 0 < bad["mismatched"] < 8
    ex = bad["examples"][0]
    assert ex["index"] % 3 == 0 and ex["stored"][0]["score"] + 1 == ex["recomputed"][0]["score"]
    with pytest.raises(ValueError, match="per_config"):
        verify(exp, tmp_path, per_config=0)
    assert set(bad["keys"]) == {exp.task_key(c) for c in exp.configs}


def test_forget_removes_only_the_named_tasks_so_the_next_run_recomputes_them(tmp_path):
    calls: list = []
    exp = make(counting(calls))
    first = run(exp, tmp_path)
    key = exp.task_key(exp.configs[1])
    assert forget(exp, tmp_path, [key]) == 10
    assert status(exp, tmp_path) == {"done": 10, "total": 20, "missing": 10, "damaged": []}
    calls.clear()
    again = run(exp, tmp_path)
    assert sorted(calls) == [(2, i) for i in range(10)]  # only the forgotten config
    pd.testing.assert_frame_equal(first, again)
    with pytest.raises(ValueError, match="keys"):
        forget(exp, tmp_path, ["not-a-key"])


def test_verify_ignores_timings_but_not_results(tmp_path):
    import time as _time

    def timed(config, index, rng):
        t0 = _time.perf_counter()
        return {"score": int(rng.integers(100)), "seconds": _time.perf_counter() - t0 + index}

    exp = make(timed)
    run(exp, tmp_path)
    assert verify(exp, tmp_path, per_config=3)["mismatched"] == 0  # every timing differs

    def timed_changed(config, index, rng):
        return {**timed(config, index, rng), "score": -1}

    assert verify(make(timed_changed), tmp_path, per_config=3)["mismatched"] == 6


def test_a_smaller_request_leaves_the_manifest_alone(tmp_path):
    """Asking for fewer games than the file holds computes nothing and must not re-stamp the
    manifest (commit, n, configs) as if this code had computed the rows."""
    exp = make(counting([]))
    run(exp, tmp_path)
    manifest = paths(exp, tmp_path)["manifest"]
    before = manifest.read_bytes()
    time.sleep(1.1)  # a rewrite would change "updated" (second resolution)
    calls: list = []
    subset = run(make(counting(calls), n=4, configs=[{"a": 1}]), tmp_path)
    assert calls == [] and len(subset) == 4
    assert manifest.read_bytes() == before


def test_the_manifest_records_the_commit_at_the_start_of_the_run(tmp_path, monkeypatch):
    """A long run's manifest names the code it loaded, not a later HEAD."""
    import gameai.core.store as store

    heads = iter(["a" * 40, "b" * 40])
    monkeypatch.setattr(store.subprocess, "run", lambda args, **kw: type(
        "R", (), {"returncode": 0, "stdout": next(heads) if "rev-parse" in args else ""})())
    store._git.cache_clear()
    try:
        run(make(counting([]), n=2), tmp_path / "first")
        run(make(counting([]), n=2, name="second"), tmp_path / "second")
        for folder, name in (("first", "fig1"), ("second", "second")):
            m = json.loads((tmp_path / folder / "toy" / f"{name}.json").read_text())
            assert m["git_commit"] == "a" * 40
    finally:
        store._git.cache_clear()
