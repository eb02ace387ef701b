"""The authors' own Table III games (data/kingdomino/authors_games.csv) and their import."""

import re

import numpy as np
import pytest

from gameai.kingdomino import authors_import, paper


@pytest.fixture(scope="module")
def games():
    return paper.authors_games()


def test_every_table3_cell_has_its_200_games(games):
    cells = games.groupby(["strategy", "T"])
    assert cells.ngroups == len(paper.TABLE3) * len(paper.TABLE3_T) == 170
    assert set(games["strategy"]) == set(paper.TABLE3)
    for _, g in cells:
        assert list(g["game"]) == list(range(paper.TABLE3_GAMES))
    assert (games["score_diff"] == games["score"] - games[["opp1", "opp2", "opp3"]].max(axis=1)).all()
    assert (games["win"] == np.sign(games["score_diff"])).all()


def test_each_cell_mean_is_the_printed_value_to_its_rounding_except_the_named_slips(games):
    means = games.groupby(["strategy", "T"])["score_diff"].mean()
    off = []
    for (s, T), m in means.items():
        printed = paper.TABLE3[s][paper.TABLE3_T.index(T)]
        if T == 10 and s in paper.TABLE3_UCT_B_10S_RAW:  # UCT_B's own files: the raw values
            assert abs(m - paper.TABLE3_UCT_B_10S_RAW[s]) <= 0.05 + 1e-9, (s, T)
        elif abs(m - printed) > 0.05 + 1e-9:
            off.append((s, T))
            assert abs(m - printed) <= 0.1 + 1e-9  # one unit of the last digit, no more
    assert sorted(off) == sorted(paper.AUTHORS_GAMES_SLIPS)
    for cell, m in paper.AUTHORS_GAMES_SLIPS.items():
        assert means[cell] == pytest.approx(m)


def test_the_printed_uct_b_10s_column_is_uct_w_s_games(games):
    """The table script's slip: its UCT_B 10 s column is the mean of UCT_W's 10 s files."""
    means = games[games["T"] == 10].groupby("strategy")["score_diff"].mean()
    for s in paper.TABLE3_UCT_B_10S_RAW:
        w = s.replace("UCT_B", "UCT_W")
        assert round(means[w], 1) == paper.TABLE3[s][-1] == paper.TABLE3[w][-1]
        assert abs(means[s] - paper.TABLE3[s][-1]) > 1  # UCT_B's own games are not that


def test_the_header_names_every_cell_s_file_and_commit():
    text = paper.authors_games_path().read_text(encoding="utf-8")
    sources = re.findall(r"^#\s+(\S+) T=([\d.]+): (experiments/runs/\S+\.dat) \(commit ([0-9a-f]{40}),"
                         r" 200 games\)", text, re.M)
    assert len({(s, float(T)) for s, T, _, _ in sources}) == 170
    uct_b_10 = [p for s, T, p, _ in sources if s.startswith("UCT_B-") and T == "10"]
    assert len(uct_b_10) == 4 and all("_UCTB_" in p for p in uct_b_10)
    assert len({p for s, _, p, _ in sources if s == "FG"}) == 1  # one FG file for all budgets


def test_the_import_reads_what_the_table_script_loads():
    script = """
    strat1_t0_1 = dlmread('runs/run-a/kdom_exp_MCE_EG_R_vs_FULL_GREEDY_T0.1_P0.dat', ' ', 19, 0);
    strat2_t10  = dlmread('runs/run-b/kdom_exp_UCTW_TR_C0_6_W0_1_vs_FULL_GREEDY_G200_T10_P0.dat', ' ', 19, 0);
    # strat3_t1 = dlmread('runs/commented-out.dat', ' ', 19, 0);
    score_diffs{1} = getScoreDiffsCellArray(strats_1, "MCE-EG/R");
    score_diffs{2} = getScoreDiffsCellArray(strats_2, "UCTB-TR");
    """
    cells = authors_import.script_cells(script)
    assert cells == [("MCE-εG/R", 0.1, "run-a/kdom_exp_MCE_EG_R_vs_FULL_GREEDY_T0.1_P0.dat"),
                     ("UCT_B-TR", 10.0, "run-b/kdom_exp_UCTW_TR_C0_6_W0_1_vs_FULL_GREEDY_G200_T10_P0.dat")]
    assert authors_import.uct_b_10s_file(cells[1][2]) == \
        "run-b/kdom_exp_UCTB_TR_C0_6_W0_1_vs_FULL_GREEDY_G200_T10_P0.dat"
    assert authors_import.paper_name("UCTW-EG") == "UCT_W-εG"


def test_read_games_skips_the_header_and_takes_the_named_columns():
    row = [1, 61] + [0] * 66 + [5, 40, 56, 30]  # win, score, ..., margin (col 69), opponents
    text = "#\n" * 19 + " ".join(map(str, row)) + " \n" + " ".join(map(str, row)) + "\n"
    g = authors_import.read_games(text)
    assert len(g) == 2 and list(g["game"]) == [0, 1]
    assert g.iloc[0][["win", "score", "score_diff", "opp1", "opp2", "opp3"]].tolist() == \
        [1, 61, 5, 40, 56, 30]
    with pytest.raises(ValueError, match="72 numbers"):
        authors_import.read_games("#\n" * 19 + "1 2 3\n")


#: A git copy of the authors' repository, where this machine has one (the import's source).
MIRROR = __import__("os").environ.get("GAMEAI_KDOM_AI_GIT", "/work/.mirror/mgedda+kdom-ai/repo")


@pytest.mark.skipif(not __import__("pathlib").Path(MIRROR).exists(),
                    reason="no copy of the authors' repository (set GAMEAI_KDOM_AI_GIT)")
def test_the_committed_copy_is_what_the_import_writes(tmp_path):
    out = authors_import.main(["--git-dir", MIRROR, "--out", str(tmp_path / "games.csv")])
    assert out == 0
    assert (tmp_path / "games.csv").read_bytes() == paper.authors_games_path().read_bytes()
