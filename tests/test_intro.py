"""The introduction's one-line verdicts come from each chapter's claims."""

import shutil
from pathlib import Path

from gameai.book import intro

DATA = Path(__file__).resolve().parents[1] / "data"


def test_one_line_per_chapter_from_its_claims_and_a_note_where_none(tmp_path):
    shutil.copytree(DATA / "durak", tmp_path / "durak", ignore=shutil.ignore_patterns("*.csv", "*.json"))
    shutil.copy(DATA / "durak" / "claims.csv", tmp_path / "durak" / "claims.csv")
    table = intro.one_line_table(tmp_path)
    assert list(table["chapter"]) == [title for _, title, _ in intro.CHAPTERS]
    durak = table.set_index("chapter").loc["Durak", "verdict"]
    assert durak.startswith("The article measures nothing") or "hold" in durak
    others = table[table["chapter"] != "Durak"]["verdict"]
    assert others.str.startswith("Not in this build").all()
    md = intro.one_lines(tmp_path).data
    assert md.count("\n- ") == len(intro.CHAPTERS) - 1 and "(durak.html)" in md
