"""The like-for-like switches of Table III: the authors' move order, their measured budgets,
their opponents (FG*, FGA) and their greedy in playouts. Each switch is off by default, and then
nothing changes."""

import numpy as np
import pytest

from gameai.kingdomino import paper
from gameai.kingdomino.agents import (
    AG_ITERS,
    AG_ORDER,
    ORDER_AUTHORS,
    agent_row,
    budget_for,
    choose_move,
    uct_move,
)
from gameai.kingdomino.experiments import game_config, game_task, seat_rows
from gameai.kingdomino.policies import (
    GREEDY_AUTHORS,
    POL_FG,
    POL_PG,
    POL_TR,
    fg_authors_move,
    fg_move,
    new_buffers,
    new_memo,
    policy_move,
)
from gameai.kingdomino.rules import (
    MAX_MOVES,
    G_CUROWN,
    G_DONE,
    G_ROUND,
    current_player,
    domino_to_place,
    apply_move,
    legal_moves,
    new_game,
    pick_major,
    random_move,
)


def _midgame(seed=3, plies=9):
    """A position in round 3 or so, where a move is a placement and a pick."""
    rng = np.random.default_rng(seed)
    G, K = new_game(rng)
    pb, _, _ = new_buffers()
    draft = np.empty(4, dtype=np.int64)
    for _ in range(plies):
        apply_move(G, K, random_move(G, K, rng, pb[2]), rng, draft, False)
    assert G[G_DONE] == 0
    return G, K


def test_pick_major_groups_moves_by_domino_lowest_first_keeping_placement_order():
    G, K = _midgame()
    pb, _, _ = new_buffers()
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    n = legal_moves(G, K, mv, pb[0])
    ours = mv[:n].copy()
    pick_major(mv, n, np.empty(MAX_MOVES, dtype=np.int64))
    authors = mv[:n]
    picks = authors % 5
    assert len(set(picks)) > 1 and np.all(np.diff(picks) >= 0)  # lowest slot (domino) first
    assert sorted(authors) == sorted(ours)  # the same moves
    for pick in set(picks):  # each domino's placements in our order
        assert list(authors[picks == pick]) == list(ours[ours % 5 == pick])


@pytest.mark.parametrize("order", [0, ORDER_AUTHORS])
def test_with_few_iterations_authors_order_only_tries_the_lowest_domino(order):
    G, K = _midgame()
    pb, gb, scratch = new_buffers()
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    n = legal_moves(G, K, mv, pb[0])
    first_pick = min(mv[:n] % 5)
    picks = set()
    for seed in range(12):
        m, _ = uct_move(G.copy(), K.copy(), POL_TR, 0, 0.6, 0.1, 4, np.random.default_rng(seed),
                        mv, pb, gb, scratch, np.empty(4, dtype=np.int64), new_memo(),
                        order)
        picks.add(int(m % 5))
    if order == ORDER_AUTHORS:
        assert picks == {first_pick}
    else:  # placement-major: the first 4 moves are one placement with each free pick
        assert len(picks) > 1


def test_authors_budget_rounds_stochastically_to_the_right_mean():
    its = np.full(13, 2.3)
    a = agent_row("UCT-FG", 0.1, iterations=its)
    rng = np.random.default_rng(1)
    draws = np.array([budget_for(a, 5, rng) for _ in range(20_000)])
    assert set(draws) == {2, 3} and abs(draws.mean() - 2.3) < 0.02
    small = agent_row("MCE-FG/R", 0.1, iterations=np.full(13, 0.4))
    assert min(budget_for(small, 1, rng) for _ in range(200)) == 1  # at least one


def test_the_rule_budget_draws_nothing_from_the_stream():
    a = agent_row("UCT-FG", 1.0)
    rng = np.random.default_rng(7)
    assert budget_for(a, 4, rng) == 54 and rng.random() == np.random.default_rng(7).random()


def test_authors_budget_reads_the_cell_move_by_move():
    its = paper.authors_iterations("UCT-FG", 0.1)
    assert len(its) == 13 and its[0] == pytest.approx(1.0) and its[2] == pytest.approx(2.5)
    cfg = game_config({"player": "UCT-FG", "opponent": "FG*", "T": 0.1, "budget": "authors",
                       "move_order": "authors"})
    ag = seat_rows(cfg)
    assert np.allclose(ag[0, AG_ITERS:AG_ITERS + 13], its) and ag[0, AG_ORDER] == ORDER_AUTHORS
    assert np.all(ag[1:, AG_ITERS:] == 0)  # the static opponents get no budget


@pytest.mark.parametrize("bad,match", [
    ({"move_order": "pick"}, "move_order must be one of placement, authors"),
    ({"budget": "wallclock"}, "budget must be one of rule, authors"),
    ({"budget": "authors", "T": 0.7}, "budget 'authors' has no measured playouts for UCT-FG at "
                                      "T = 0.7 s"),
    ({"budget": "authors", "player": "MCE-TR/P"}, "no measured playouts for MCE-TR/P"),
    ({"playout_greedy": "FG*"}, "playout_greedy must be one of ours, authors"),
])
def test_bad_switches_fail_before_any_game(bad, match):
    cfg = {"player": "UCT-FG", "opponent": "FG*", "T": 0.1, **bad}
    with pytest.raises(ValueError, match=match):
        game_config(cfg)


def test_defaults_change_nothing():
    """A config that spells out the default switches plays the same game as one without them."""
    base = {"player": "UCT_W-FG", "opponent": "FG", "T": 0.1}
    a = game_task(base, 0, np.random.default_rng(5))
    b = game_task({**base, "move_order": "placement", "budget": "rule",
                   "playout_greedy": "ours"}, 0, np.random.default_rng(5))
    assert a == b


def test_a_like_for_like_game_plays():
    cfg = {"player": "UCT-PG", "opponent": "FG*", "T": 0.1, "move_order": "authors",
           "budget": "authors"}
    row = game_task(cfg, 0, np.random.default_rng(2))
    assert row["seat1"] == "FG*" and row["playouts"] > 0
    assert row == game_task(cfg, 0, np.random.default_rng(2))


# ------------------------------------------------------------------ the authors' greedy (FGA)
def _round(r, seed=4):
    """A position at the first move of round ``r`` (TR play up to it)."""
    rng = np.random.default_rng(seed)
    G, K = new_game(rng)
    pb, _, _ = new_buffers()
    draft = np.empty(4, dtype=np.int64)
    while G[G_ROUND] < r:
        apply_move(G, K, random_move(G, K, rng, pb[2]), rng, draft, False)
    return G, K


def _moves(fn, G, K, seeds=range(60)):
    pb, gb, scratch = new_buffers()
    memo = new_memo()  # one memo for all the seeds: from the second on, FG replays its result
    return [int(fn(G, K, np.random.default_rng(s), pb, gb, scratch, memo)) for s in seeds]


def test_fga_places_its_first_domino_at_random_and_picks_the_most_crowns():
    """Round 2 (kdom-ai ``TinyGreedyAlgorithm``: no tile placed yet): a random placement,
    the pick with the most crowns on one tile (our FG evaluates both)."""
    from gameai.kingdomino.dominoes import DOMINOES
    from gameai.kingdomino.rules import G_CUR, PLACE_DISCARD, all_placements

    G, K = _round(2)
    fga = _moves(fg_authors_move, G, K, range(200))
    places = {m // 5 for m in fga}
    picks = {m % 5 for m in fga}
    buf = np.empty(256, dtype=np.int64)
    legal = {int(x) for x in buf[:all_placements(K[current_player(G)], domino_to_place(G), buf)]}
    assert places == legal and PLACE_DISCARD not in places  # every placement, at random
    crowns = [max(DOMINOES[G[G_CUR + i], 1], DOMINOES[G[G_CUR + i], 3]) for i in picks]
    free = [i for i in range(4) if G[G_CUROWN + i] < 0]
    assert min(crowns) == max(max(DOMINOES[G[G_CUR + i], 1], DOMINOES[G[G_CUR + i], 3])
                              for i in free)


@pytest.mark.parametrize("r", [3, 7, 12])
def test_fga_is_our_fg_between_the_first_and_last_placement(r):
    G, K = _round(r)
    assert _moves(fg_authors_move, G, K, range(10)) == _moves(fg_move, G, K, range(10))


def test_fga_places_its_last_domino_at_random_as_fg_star():
    G, K = _round(13)
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    pb, gb, scratch = new_buffers()
    memo = new_memo()
    draft = np.empty(4, dtype=np.int64)
    for seed in range(10):
        star, _ = choose_move(G, K, agent_row("FG*"), np.random.default_rng(seed), mv, pb, gb,
                              scratch, draft, memo)
        fga, _ = choose_move(G, K, agent_row("FGA"), np.random.default_rng(seed), mv, pb, gb,
                             scratch, draft, memo)
        assert star == fga


def test_authors_playout_greedy_plays_fga_in_playouts():
    """A policy code plus GREEDY_AUTHORS plays the greedy moves of FG, PG (the searcher) and
    eps-G playouts with ``fg_authors_move``; TR playouts are unchanged."""
    G, K = _round(2)
    pb, gb, scratch = new_buffers()
    memo = new_memo()
    me = current_player(G)
    for pol in (POL_FG, POL_PG):
        ours = [int(policy_move(G, K, pol + GREEDY_AUTHORS, me, np.random.default_rng(s), pb,
                                gb, scratch, memo)) for s in range(20)]
        assert ours == _moves(fg_authors_move, G, K, range(20))
    tr = [int(policy_move(G, K, POL_TR + GREEDY_AUTHORS, 0, np.random.default_rng(s), pb, gb,
                          scratch, memo)) for s in range(20)]
    assert tr == [int(policy_move(G, K, POL_TR, 0, np.random.default_rng(s), pb, gb, scratch,
                                  memo)) for s in range(20)]


def test_a_game_with_the_authors_greedy_plays_and_differs():
    cfg = {"player": "MCE-FG/R", "opponent": "FGA", "playouts": 20}
    a = game_task({**cfg, "playout_greedy": "authors"}, 0, np.random.default_rng(8))
    assert a["seat1"] == "FGA" and a["playouts"] > 0
    assert a == game_task({**cfg, "playout_greedy": "authors"}, 0, np.random.default_rng(8))
    assert a != game_task(cfg, 0, np.random.default_rng(8))


class _Recorder:
    """Stands in for the chapter's Results: records the configs each experiment asks for."""

    def __init__(self, **params):
        from gameai.kingdomino.chapter import resolve

        self.params = resolve(params)
        self.asked = {}

    def computes(self, group):
        return False

    def get(self, name, key, task, configs, n, **kwargs):
        self.asked[key] = configs


def test_the_playout_greedy_switch_is_spelt_out_only_when_on():
    """Off (the default), the like-for-like cells keep the keys their stored games have."""
    from gameai.kingdomino.chapter import table3_authors

    off, on = _Recorder(), _Recorder(playout_greedy="authors", opponents="FGA")
    table3_authors(off)
    table3_authors(on)
    assert all("playout_greedy" not in c for cs in off.asked.values() for c in cs)
    assert all(c["playout_greedy"] == "authors" and c["opponent"] == "FGA"
               for cs in on.asked.values() for c in cs)
    with pytest.raises(ValueError, match="playout_greedy"):
        _Recorder(playout_greedy="FGA")


def test_the_authors_greedy_check_plays_fga_opponents_with_fga_playouts():
    from gameai.kingdomino.chapter import GREEDY_GAMES, authors_greedy

    res = _Recorder()
    authors_greedy(res)
    assert [(c["player"], c["opponent"]) for c in res.asked["greedy_self_play"]] == \
        list(GREEDY_GAMES)
    cells = res.asked["greedy_check"]
    assert len(cells) == 12 and {c["T"] for c in cells} == {0.5, 6.0}
    assert all(c["opponent"] == "FGA" and c["playout_greedy"] == "authors"
               and c["budget"] == "authors" and c["move_order"] == "authors" for c in cells)
    game_config(cells[0])  # a valid game config, the authors' budget found
