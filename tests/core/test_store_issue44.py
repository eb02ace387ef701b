"""Issue 44: a results folder cannot be damaged through a link, a duplicated row or a stale or
missing manifest, and a run never throws away the chunks it has just computed."""

from __future__ import annotations

import hashlib
import json
import os

import pandas as pd
import pytest

from gameai.core.io import OutsideFolder
from gameai.core.store import (DamagedResults, Experiment, load_or_run, paths, status, verify)


def play(config, index, rng):
    """Two rows per task (every task alike), so that a copied row shows as a task too long."""
    return [{"turn": t, "score": int(rng.integers(10))} for t in (0, 1)]


def play_varying(config, index, rng):
    """A varying number of rows per task (one per move of a game, say)."""
    return [{"turn": t, "score": int(rng.integers(10))} for t in range(1 + index % 3)]


def make(fn=play, n=6) -> Experiment:
    return Experiment(chapter="toy", name="fig", fn=fn, configs=[{"a": 1}, {"a": 2}], n=n,
                      seed=3, version="1", chunk_size=2)


def run(data_dir, fn=play, **kw):
    return load_or_run(make(fn), data_dir=data_dir, progress=False, **kw)


def digest(folder) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != ".lock"}


@pytest.fixture
def stored(tmp_path):
    data = tmp_path / "d"
    whole = run(data)
    p = paths(make(), data)
    return data, whole, p["csv"].read_bytes(), json.loads(p["manifest"].read_text())


# ------------------------------------------------------------------- links at every level


def test_a_chapter_folder_linked_elsewhere_is_refused_and_nothing_there_changes(stored, tmp_path):
    committed, _, _, _ = stored
    before = digest(committed)
    mine = tmp_path / "mine"
    mine.mkdir()
    os.symlink(committed / "toy", mine / "toy")
    with pytest.raises(OutsideFolder, match="link"):
        run(mine, n_jobs=1)
    with pytest.raises(OutsideFolder):
        status(make(), mine)
    assert digest(committed) == before


@pytest.mark.parametrize("level", [".partial", ".partial/fig"])
def test_a_partial_folder_linked_elsewhere_is_refused(stored, tmp_path, level):
    data, _, _, _ = stored
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "budget.csv").write_text("key,index,x\nnot a row\n")
    (foreign / "fig").mkdir()
    (foreign / "fig" / "budget.csv").write_text("key,index,x\nnot a row\n")
    before = digest(foreign)
    link = data / "toy" / level
    link.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(foreign if level == ".partial" else foreign / "fig", link)
    with pytest.raises(OutsideFolder, match="outside the results folder"):
        run(data)
    assert digest(foreign) == before


def test_a_chunk_file_linked_elsewhere_is_refused(stored, tmp_path):
    data, _, _, _ = stored
    foreign = tmp_path / "foreign.csv"
    foreign.write_text("key,index,turn,score,extra\n")
    partial = paths(make(), data)["partial"]
    partial.mkdir(parents=True)
    os.symlink(foreign, partial / "0123456789abcdef-0-2.csv")
    with pytest.raises(OutsideFolder):
        run(data)
    assert foreign.read_text() == "key,index,turn,score,extra\n"


# ------------------------------------------------------------------- duplicated task keys


def _task_lines(csv):
    lines = csv.read_text().splitlines(keepends=True)
    return lines[0], lines[1:]


def test_a_task_copied_elsewhere_in_the_file_with_another_value_is_recomputed(stored):
    data, whole, text, manifest = stored
    csv = paths(make(), data)["csv"]
    header, body = _task_lines(csv)
    key, index, turn, score = body[0].rstrip("\n").split(",")
    csv.write_text(header + "".join(body) + f"{key},{index},{turn},{(int(score) + 1) % 10}\n")
    st = status(make(), data)
    assert st["done"] == 11 and st["damaged"] == [csv]  # neither copy is taken as the game
    out = verify(make(), data, per_config=1)
    assert out["damaged"]
    again = run(data)
    pd.testing.assert_frame_equal(again, whole)
    assert csv.read_bytes() == text  # byte for byte, and the manifest counts the true rows
    assert json.loads(paths(make(), data)["manifest"].read_text())["rows_in_file"] == \
        manifest["rows_in_file"]


def test_a_row_copied_beside_its_task_is_found_by_the_row_count(stored):
    data, whole, text, _ = stored
    csv = paths(make(), data)["csv"]
    header, body = _task_lines(csv)
    key, index, turn, score = body[3].rstrip("\n").split(",")
    body.insert(4, f"{key},{index},{turn},{(int(score) + 3) % 10}\n")
    csv.write_text(header + "".join(body))
    assert status(make(), data)["done"] == 11
    pd.testing.assert_frame_equal(run(data), whole)
    assert csv.read_bytes() == text


def test_extra_rows_that_cannot_be_traced_are_refused_never_adopted(tmp_path):
    data = tmp_path / "d"
    run(data, fn=play_varying)
    csv = paths(make(play_varying), data)["csv"]
    header, body = _task_lines(csv)
    key, index, turn, score = body[0].rstrip("\n").split(",")
    body.insert(1, f"{key},{index},{turn},{(int(score) + 1) % 10}\n")
    csv.write_text(header + "".join(body))
    manifest = paths(make(play_varying), data)["manifest"].read_text()
    with pytest.raises(DamagedResults, match="mv "):
        run(data, fn=play_varying)
    assert paths(make(play_varying), data)["manifest"].read_text() == manifest


def test_a_task_in_the_csv_and_a_chunk_with_other_values_is_recomputed(stored):
    data, whole, text, _ = stored
    p = paths(make(), data)
    header, body = _task_lines(p["csv"])
    key = body[0].split(",")[0]
    p["partial"].mkdir(parents=True)
    altered = [line.rsplit(",", 1)[0] + ",9\n" for line in body[:4]]
    (p["partial"] / f"{key}-0-2.csv").write_text(header + "".join(altered))
    assert status(make(), data)["done"] == 10
    pd.testing.assert_frame_equal(run(data), whole)
    assert p["csv"].read_bytes() == text and not p["partial"].exists()


# ------------------------------------------------------------------- manifest and file disagree


def test_a_manifest_with_other_column_types_never_costs_the_run_its_chunks(stored):
    data, whole, text, _ = stored
    p = paths(make(), data)
    manifest = json.loads(p["manifest"].read_text())
    manifest["columns"] = {"turn": "bool", "score": "bool"}  # fits no row
    p["manifest"].write_text(json.dumps(manifest))
    again = run(data)
    pd.testing.assert_frame_equal(again, whole)
    assert p["csv"].read_bytes() == text
    new = json.loads(p["manifest"].read_text())
    assert new["rows_in_file"] == 24 and new["columns"]["score"] == "int64"


def test_a_missing_manifest_is_damage_and_its_rows_of_unknown_origin(stored):
    data, whole, text, _ = stored
    p = paths(make(), data)
    p["manifest"].unlink()
    assert status(make(), data)["damaged"] == [p["csv"]]
    assert verify(make(), data, per_config=1)["damaged"]
    pd.testing.assert_frame_equal(run(data), whole)
    new = json.loads(p["manifest"].read_text())
    assert new["wall_time_s"] == "unknown" and new["created"] == "unknown"
    assert new["rows_of_unknown_origin"] == 24
    assert p["csv"].read_bytes() == text


def test_a_missing_csv_beside_its_manifest_is_damage_and_recomputed(stored):
    data, whole, text, _ = stored
    p = paths(make(), data)
    p["csv"].unlink()
    out = verify(make(), data, per_config=1)
    assert out["checked"] == 0 and [path for path, _ in out["damaged"]] == [p["manifest"]]
    assert status(make(), data)["damaged"] == [p["manifest"]]
    pd.testing.assert_frame_equal(run(data), whole)
    assert p["csv"].read_bytes() == text
