"""Tables are numbered per chapter ("Table 2.1"), so a table added to one chapter renumbers no
other, and the unnumbered front matter keeps its own sequence."""

from bs4 import BeautifulSoup

from gameai.book import sphinx_ext
from gameai.book import display


def _page(*tables):
    return "<html><body>" + "".join(tables) + "</body></html>"


def _captions(pages):
    return [[" ".join(f.figcaption.get_text(" ").split()) for f in
             BeautifulSoup(p, "html.parser").select("figure.gameai-table")] for p in pages]


def test_each_chapter_numbers_its_own_tables_and_the_intro_keeps_plain_numbers():
    t = display.table_html
    intro = _page(t("<table><tr><td>0</td></tr></table>", "Scorecard", "tab-scorecard"))
    ch2 = _page(t("<table><tr><td>1</td></tr></table>", "First", "tab-kd-first"),
                t("<table><tr><td>2</td></tr></table>", None, ""))
    ch5 = _page(t("<table><tr><td>3</td></tr></table>", "Third", "tab-cg-third"))
    out, _ = sphinx_ext.number_tables([intro, ch2, ch5], chapters=[None, "2", "5"])
    assert _captions(out) == [["Table 1. Scorecard #"], ["Table 2.1. First #", "Table 2.2. #"],
                              ["Table 5.1. Third #"]]
    figs = BeautifulSoup(out[1], "html.parser").select("figure.gameai-table")
    assert [f["id"] for f in figs] == ["tab-kd-first", "tab-2-2"]  # fixed id kept, else by number
    assert [f["data-table-number"] for f in figs] == ["2.1", "2.2"]
    # a table added to chapter 2 leaves chapter 5's number and id as they were
    grown = _page(t("<table><tr><td>9</td></tr></table>", "New", "tab-kd-new")) + ch2
    again, _ = sphinx_ext.number_tables([intro, grown, ch5], chapters=[None, "2", "5"])
    assert _captions(again)[2] == ["Table 5.1. Third #"]
    # numbering twice changes nothing
    assert sphinx_ext.number_tables(out, chapters=[None, "2", "5"])[0] == out


def test_chapter_number_reads_sphinx_section_numbers():
    class Env:
        toc_secnumbers = {"book/kingdomino": {"": (2,), "#a-section": (2, 1)},
                          "book/intro": {}}

    assert sphinx_ext.chapter_number(Env(), "book/kingdomino") == "2"
    assert sphinx_ext.chapter_number(Env(), "book/intro") is None
    assert sphinx_ext.chapter_number(Env(), "book/missing") is None


def test_the_footer_names_version_commit_and_date(tmp_path):
    import subprocess

    line = sphinx_ext.provenance_footer(tmp_path, "9.9", today="2026-01-02")  # not a repository
    assert "Version 9.9, built 2026-01-02 from commit <code>unknown</code>" in line
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "x.csv").write_text("a\n")
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True, env=env)
    subprocess.run(["git", "commit", "-qm", "x"], cwd=tmp_path, check=True, env=env)
    head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=tmp_path, text=True,
                          capture_output=True).stdout.strip()
    assert f"<code>{head}</code>;" in sphinx_ext.provenance_footer(tmp_path, "1")
    (tmp_path / "data" / "x.csv").write_text("b\n")
    assert "with uncommitted changes" in sphinx_ext.provenance_footer(tmp_path, "1")
