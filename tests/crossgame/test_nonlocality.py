"""The opponents' moves measure (gameai.crossgame.nonlocality) and its table and words."""

import numpy as np
import pandas as pd
import pytest

from gameai.crossgame import games as G
from gameai.crossgame import report
from gameai.crossgame.adapters import nim
from gameai.crossgame.analysis import nonlocality_table
from gameai.crossgame.nonlocality import likelihood_game, move_likelihoods
from gameai.crossgame.play import SETTINGS, deal_rng


def _durak2_moves(rng):
    """Every position of one Durak 2p game (baseline in both seats) with a choice, with the
    move EvalAI made there."""
    s, g = SETTINGS["durak2"].new_game(deal_rng(2012, "durak2", 0), 0)
    mv = np.empty(G.MAX_MOVES, dtype=np.int64)
    out = []
    while (p := G.current(s, g)) >= 0:
        m = G.baseline(s, g, rng)
        if G.legal(s, g, mv) > 1:
            out.append((s.copy(), g, p, m))
        G.apply(s, g, m)
    return out


def test_without_hidden_information_every_drawn_deal_is_the_true_one():
    s, g = nim.new_game(7)
    rng = np.random.default_rng(0)
    pu, pt, kept, tried = move_likelihoods(s, g, 1, G.baseline(s, g, rng), 20, rng)
    assert (pu, pt, kept, tried) == (1.0, 1.0, 20, 20)


def test_the_mover_s_own_view_leaves_nothing_to_learn_and_the_other_s_does():
    """EvalAI decides from its own hand and what is public: drawn from the mover's own view
    (its hand kept) every deal allows its move and gives it; drawn from the other seat's view
    (the deals the measure draws) some do not, so the measure uses the right seat."""
    rng = np.random.default_rng(1)
    positions = _durak2_moves(rng)
    own = [move_likelihoods(s, g, p, m, 10, rng) for s, g, p, m in positions]
    other = [move_likelihoods(s, g, 1 - p, m, 10, rng) for s, g, p, m in positions]
    assert all(pu == pt == 1.0 and kept == tried for pu, pt, kept, tried in own)
    assert min(pu for pu, *_ in other) < 0.5
    assert any(kept < tried for _, _, kept, tried in other)


def test_a_row_weighs_the_opponents_moves_of_one_game():
    row = likelihood_game("durak2", 0, 2012, np.random.default_rng(2), draws=5)
    assert set(row) == {"moves", "skipped", "p_uniform", "p_true", "kept"}
    assert row["moves"] > 0 and row["skipped"] == 0
    assert row["p_true"] == 1.0  # EvalAI breaks no ties at random
    assert 0.0 < row["p_uniform"] < 1.0 and 0.0 < row["kept"] < 1.0


def test_kingdomino_moves_are_possible_in_every_drawn_deal():
    """Kingdomino hides only the draw order, which no player sees: every move of the true
    position is legal in every drawn deal."""
    row = likelihood_game("kingdomino", 1, 2012, np.random.default_rng(3), draws=10)
    assert row["kept"] == 1.0 and row["moves"] > 0
    assert abs(row["p_uniform"] - row["p_true"]) < 0.05  # FG sees no more than the searcher


def test_only_the_opponents_moves_are_weighed():
    from gameai.crossgame.play import baseline_game

    opponent_moves = sum(p != seat for _, _, seat, p, _ in
                         baseline_game("durak4", 3, 2012, np.random.default_rng(0)))
    row = likelihood_game("durak4", 3, 2012, np.random.default_rng(1), draws=3)
    assert row["moves"] + row["skipped"] == opponent_moves > 0  # EvalAI draws no random numbers


def _rows():
    return pd.DataFrame({"game": ["durak2"] * 3 + ["kingdomino"] * 3, "index": [0, 1, 2] * 2,
                         "moves": [30, 20, 40, 36, 38, 34], "skipped": [0] * 6,
                         "p_uniform": [0.7, 0.6, 0.8, 0.40, 0.37, 0.47],
                         "p_true": [1.0, 1.0, 1.0, 0.39, 0.38, 0.47],
                         "kept": [0.5, 0.4, 0.6, 1.0, 1.0, 1.0]})


def test_the_table_pairs_the_true_and_the_drawn_deals_by_game():
    t = nonlocality_table(_rows()).set_index("game")
    assert t.at["durak2", "games"] == 3 and t.at["durak2", "moves"] == 30
    assert t.at["durak2", "gap"] == pytest.approx(0.3)
    assert t.at["durak2", "gap_low"] > 0
    assert t.at["kingdomino", "gap_low"] < 0 < t.at["kingdomino", "gap_high"]
    assert t.at["durak2", "p_true"] == t.at["durak2", "true_low"] == 1.0  # no spread, no width


def test_the_words_name_where_the_moves_tell_and_where_they_do_not():
    text = report.nonlocality_text(nonlocality_table(_rows()))
    assert "In Durak, 2 players the opponents' moves speak against many of the deals drawn" in text
    assert "only 70.0\u00a0% of the drawn deals" in text
    assert "In Kingdomino, 4 players the interval covers 0" in text
    assert text.index("Durak, 2 players +30.0") < text.index("Kingdomino, 4 players")


def test_the_display_has_one_row_per_game_in_the_chapter_s_order():
    shown = report.nonlocality_display(nonlocality_table(_rows()), ["kingdomino", "durak2"])
    assert list(shown["game"]) == ["Kingdomino", "Durak, 2p"]
    assert shown.notna().all().all()
    assert shown.loc[1, "gap (points)"].startswith("+30.0<br><small>+")


def test_a_share_with_no_spread_over_games_is_shown_without_an_interval():
    shown = report.nonlocality_display(nonlocality_table(_rows()), ["durak2", "kingdomino"])
    assert shown.loc[0, "same move: true deal"] == "100.0\u00a0%"
    assert "<small>" in shown.loc[1, "same move: true deal"]


def test_games_named_in_a_sentence_are_counted_and_kept_apart_by_semicolons():
    rows = _rows()
    rows = pd.concat([rows, rows[rows["game"] == "durak2"].assign(game="tarok")])
    text = report.nonlocality_text(nonlocality_table(rows))
    assert "In 2 of the 3 games (Durak, 2 players; Tarok, declarer in 'three') the opponents'" \
        in text
