"""The execution-statistics page reads the manifests, never other JSON files."""

import json

import pytest

from gameai.book import statistics as st


def _manifest(folder, chapter, experiment, wall, jobs, **extra):
    (folder / chapter).mkdir(parents=True, exist_ok=True)
    m = {"experiment": experiment, "chapter": chapter, "configs": [{}, {}], "rows": 40,
         "wall_time_s": wall, "n_jobs": jobs, "cpu_count": 2, "git_commit": "a" * 40,
         "packages": {"python": "3.11.7", "numba": "0.68.1"}, "updated": "2026-11-23T11:56:31+00:00",
         **extra}
    (folder / chapter / f"{experiment}.json").write_text(json.dumps(m))


def test_manifests_give_one_row_each_with_core_hours(tmp_path):
    _manifest(tmp_path, "durak", "hands", 3600, 2, verified=[{"date": "2026-11-26T15:19:00",
                                                             "checked": 64, "mismatched": 0}])
    _manifest(tmp_path, "durak", "baselines", 1800, 1)
    (tmp_path / "durak" / "bench.json").write_text(json.dumps({"speed": 1}))  # not a manifest
    (tmp_path / "durak" / "broken.json").write_text("{")
    t = st.manifest_table(tmp_path).set_index("experiment")
    assert list(t.index) == ["baselines", "hands"]
    assert t.loc["hands", "core-hours"] == pytest.approx(2.0) and t.loc["baselines", "wall (h)"] == 0.5
    assert t.loc["hands", "verified"] == "2026-11-26: 64 checked, 0 differ"
    assert t.loc["hands", "machine"] == "2 cores, Python 3.11.7, numba 0.68.1"
    s = st.chapter_summary(st.manifest_table(tmp_path), {"durak": "Durak", "tarok": "Tarok"})
    assert list(s["chapter"]) == ["Durak", "all"]
    assert s.iloc[0]["core-hours"] == pytest.approx(2.5) and s.iloc[0]["verified"] == "1 of 2"
    assert s.iloc[0]["computed"] == "2026-11-23"


def test_the_build_table_names_commit_and_versions(tmp_path):
    b = st.build_table(tmp_path).set_index("")
    assert b.loc["commit", "value"].startswith("unknown")
    assert b.loc["numpy", "value"][0].isdigit()


def test_the_costliest_experiments_read_in_words(tmp_path):
    _manifest(tmp_path, "kingdomino", "table3authors_T10", 7200, 2,
              description="Table III like for like at 10 s per move")
    _manifest(tmp_path, "kingdomino", "fig6", 60, 1)
    top = st.costliest(st.manifest_table(tmp_path), {"kingdomino": "Kingdomino"}, n=1)
    assert top.iloc[0]["chapter"] == "Kingdomino"
    assert top.iloc[0]["experiment"] == "Table III like for like at 10 s per move"
    assert top.iloc[0]["core-hours"] == pytest.approx(4.0) and len(top) == 1


def test_core_hours_count_each_run_at_its_own_workers_where_recorded(tmp_path):
    # 3,600 s of wall time, the last run on 2 workers, but recorded as 5,400 core-seconds
    # (an hour's first half on one worker, its second half on two)
    _manifest(tmp_path, "tarok", "table1", 3600, 2, core_seconds=5400)
    _manifest(tmp_path, "tarok", "all_cores", 3600, -1)  # -1: every core of the 2
    t = st.manifest_table(tmp_path).set_index("experiment")
    assert t.loc["table1", "core-hours"] == pytest.approx(1.5)
    assert t.loc["all_cores", "core-hours"] == pytest.approx(2.0)
