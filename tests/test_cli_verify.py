"""``gameai verify`` (issue 29): progress while it computes, a time bound per experiment with a
note on what was left out, ``--skip``, and ``--record`` of the outcome in the manifest."""

from __future__ import annotations

import json

import pytest

from test_cli_data_safety import book, digest, gameai  # noqa: F401  (the toy book fixture)


def _manifest(book_root):
    return book_root / "data" / "toy" / "scores.json"


def _costly(book_root, seconds_per_task: float) -> None:
    """Make the manifest say that each of its tasks took ``seconds_per_task`` on one core."""
    m = json.loads(_manifest(book_root).read_text())
    m.update(wall_time_s=seconds_per_task * m["n"] * len(m["configs"]), n_jobs=1)
    m.pop("core_seconds", None)  # costed from the wall time, as an older manifest
    _manifest(book_root).write_text(json.dumps(m, indent=2) + "\n")


def test_verify_shows_progress_and_what_it_recomputes(book, capsys):
    assert gameai("verify", "toy", "--per-config", "3", "--n-jobs", "1") == 0
    out = capsys.readouterr()
    assert "gameai verify toy: scores: recomputing 3 task(s)" in out.err
    assert "verify toy/scores: 3/3 tasks (100%)" in out.err
    assert "every sampled task reproduced" in out.out and "note" not in out.out


def test_a_time_bound_skips_a_costly_experiment_with_a_note(book, capsys):
    _costly(book, 720.0)  # 12 minutes a task, as tarok's sessions
    before = digest(book / "data")
    assert gameai("verify", "toy", "--per-config", "1", "--n-jobs", "1",
                  "--max-seconds", "60") == 1
    out = capsys.readouterr()
    assert "NOT CHECKED" in out.out and "12 min" in out.out
    assert "note: 1 experiment(s) not checked in full" in out.out
    assert "every experiment was skipped or out of time" in out.err
    assert "recomputing" not in out.err
    assert digest(book / "data") == before


def test_a_time_bound_cuts_the_sample_and_says_so(book, capsys):
    _costly(book, 10.0)
    assert gameai("verify", "toy", "--per-config", "6", "--n-jobs", "1",
                  "--max-seconds", "25") == 0
    out = capsys.readouterr().out
    assert "2 of 6 checked" in out and "2 of 6 sampled tasks are checked" in out
    assert "every sampled task reproduced (of those checked: see the note)" in out


def test_skip_leaves_an_experiment_out_and_says_so(book, capsys):
    assert gameai("verify", "toy", "--skip", "scores", "--n-jobs", "1") == 1
    out = capsys.readouterr()
    assert "scores: skipped (--skip)" in out.out and "nothing was verified" in out.err


@pytest.mark.parametrize("argv, words", [
    (("--skip", "nosuch"), "--skip names no experiment of toy: nosuch; allowed: scores"),
    (("--max-seconds", "0"), "must be a finite number > 0"),
    (("--max-seconds", "inf"), "must be a finite number > 0"),
    (("--max-seconds", "nan"), "must be a finite number > 0"),
    (("--max-seconds", "soon"), "not a number"),
])
def test_bad_verify_options_are_refused_in_one_line(book, capsys, argv, words):
    assert gameai("verify", "toy", "--n-jobs", "1", *argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_record_adds_the_outcome_to_the_manifest_only(book, capsys):
    csv = (book / "data" / "toy" / "scores.csv").read_bytes()
    before = json.loads(_manifest(book).read_text())
    assert gameai("verify", "toy", "--per-config", "2", "--n-jobs", "1", "--record") == 0
    assert "recorded in scores.json under 'verified'" in capsys.readouterr().out
    after = json.loads(_manifest(book).read_text())
    assert (book / "data" / "toy" / "scores.csv").read_bytes() == csv
    assert {k: v for k, v in after.items() if k != "verified"} == before
    (entry,) = after["verified"]
    assert entry["checked"] == 2 and entry["mismatched"] == 0 and entry["per_config"] == 2
    assert "source_hash" in entry and "git_commit" in entry


def test_without_record_verify_writes_nothing(book):
    before = digest(book / "data")
    assert gameai("verify", "toy", "--n-jobs", "1") == 0
    assert digest(book / "data") == before


def test_verify_checks_a_shared_file_once_at_the_larger_n():
    """Two experiments on one file (20, then 200 deals of the same config) are verified once, at
    the larger n; one with configs of its own on the same file is kept, as is another file."""
    from gameai.cli import _one_per_file
    from gameai.core.store import Experiment

    def exp(name, n, configs):
        return Experiment(chapter="toy", name=name, fn=lambda c, i, r: {"x": 1}, seed=1,
                          configs=[{"a": a} for a in configs], n=n, version="1")

    small, large = exp("table1", 20, [0]), exp("table1", 200, [0])
    own, other = exp("table1", 20, [5]), exp("table8", 20, [0])
    kept = _one_per_file({"table1": small, "table1_ci": large, "own": own, "table8": other})
    assert list(kept) == ["table1_ci", "own", "table8"]
    assert list(_one_per_file({"a": exp("t", 10, [0]), "b": exp("t", 10, [0])})) == ["a"]
