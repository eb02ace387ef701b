"""Rules tests from hand-made kingdoms, one per statement of the spec's rules section."""

import csv
from pathlib import Path

import numpy as np

from gameai.kingdomino.dominoes import DOMINO_TABLE, DOMINOES, TERRAIN_CODE
from gameai.kingdomino.rules import (
    G_CUR,
    G_CUROWN,
    G_DONE,
    G_ORDER,
    G_PREV,
    G_PREVOWN,
    G_ROUND,
    G_SEEN,
    G_TURN,
    K_NOUT,
    MAX_MOVES,
    MAX_PLACEMENTS,
    PICK_NONE,
    PLACE_DISCARD,
    PLACE_NONE,
    OFFS,
    all_placements,
    apply_move,
    cell,
    current_player,
    gain,
    legal_moves,
    new_game,
    new_kingdoms,
    put_tiles,
    random_move,
    recount,
    score,
)

DOMINOES_CSV = Path(__file__).resolve().parent / "data" / "kingdomino_dominoes.csv"
WH, FO, LA, GR, SW, MI = (TERRAIN_CODE[t] for t in
                          ("wheat", "forest", "lake", "grassland", "swamp", "mine"))


def kingdom(*tiles):
    """A kingdom with the given tiles ``(drow, dcol, terrain, crowns)`` around its castle."""
    k = new_kingdoms()[0]
    if tiles:
        put_tiles(k, np.array(tiles, dtype=np.int64))
    return k


def placements(k, d):
    buf = np.empty(MAX_PLACEMENTS, dtype=np.int64)
    n = all_placements(k, d, buf)
    return [int(x) for x in buf[:n]]


def cells_of(pl):
    a = pl >> 2
    return a, a + int(OFFS[pl & 3])


# ------------------------------------------------------------------------------ dominoes
def test_dominoes_48_with_96_squares_and_39_crowns():
    assert len(DOMINO_TABLE) == 48
    assert DOMINOES.shape == (49, 4)
    assert (DOMINOES[1:, [0, 2]] > 0).sum() == 96
    assert DOMINOES[:, [1, 3]].sum() == 39


def test_dominoes_match_the_published_table():
    with DOMINOES_CSV.open() as f:
        rows = [(int(r["number"]), r["terrain1"], int(r["crowns1"]), r["terrain2"],
                 int(r["crowns2"])) for r in csv.DictReader(f)]
    assert tuple(rows) == DOMINO_TABLE


# ---------------------------------------------------------------------------- placement
def test_placements_next_to_a_lone_castle():
    # two different halves: 4 castle neighbours x 3 free directions x which half touches = 24
    pls = placements(new_kingdoms()[0], 13)
    assert len(pls) == 24 and len(set(pls)) == 24
    castle_nbrs = {cell(-1, 0), cell(1, 0), cell(0, -1), cell(0, 1)}
    for pl in pls:
        a, b = cells_of(pl)
        assert (a in castle_nbrs) != (b in castle_nbrs)


def test_same_terrain_mirror_listed_once():
    # dominoes 1-12 have identical halves: the 24 (cell, direction) pairs are 12 placements
    for d in range(1, 13):
        pls = placements(new_kingdoms()[0], d)
        pairs = {frozenset(cells_of(pl)) for pl in pls}
        assert len(pls) == 12 == len(pairs)
    assert len(placements(new_kingdoms()[0], 19)) == 24  # same terrain? no: wheat/forest


def test_a_tile_must_touch_the_castle_or_its_own_terrain():
    k = kingdom((0, 1, FO, 0), (0, 2, FO, 0))  # forest east of the castle
    for pl in placements(k, 17):  # forest | lake
        a, b = cells_of(pl)
        ok_a = any(k[x] in (FO, 7) for x in (a + o for o in OFFS))  # K_TER is offset 0
        ok_b = any(k[x] in (LA, 7) for x in (b + o for o in OFFS))
        assert ok_a or ok_b
    # lake/lake cannot go east of the forest (touches only forest)
    far = {frozenset((cell(0, 3), cell(1, 3))), frozenset((cell(-1, 3), cell(0, 3)))}
    assert not far & {frozenset(cells_of(p)) for p in placements(k, 7)}
    # forest/forest can
    assert frozenset((cell(0, 3), cell(0, 4))) in {frozenset(cells_of(p))
                                                   for p in placements(k, 3)}


def test_the_5x5_limit():
    k = kingdom((0, 1, FO, 0), (0, 2, FO, 0))  # columns 0..2 used
    pairs = {frozenset(cells_of(p)) for p in placements(k, 3)}  # forest/forest
    assert frozenset((cell(0, 3), cell(0, 4))) in pairs  # columns 0..4: width 5
    assert frozenset((cell(1, 2), cell(1, 3))) in pairs
    # west of the castle: columns -2..2 is width 5, -3 is not
    k2 = kingdom((0, 1, FO, 0), (0, 2, FO, 0), (0, -1, WH, 0))
    for pl in placements(k2, 1):  # wheat/wheat
        for x in cells_of(pl):
            assert (x % 11) - 5 >= -2
    assert frozenset((cell(0, -2), cell(1, -2))) in {frozenset(cells_of(p))
                                                     for p in placements(k2, 1)}
    for d in range(1, 49):
        for pl in placements(k2, d):
            cols = [x % 11 - 5 for x in cells_of(pl)] + [-1, 0, 2]
            rows = [x // 11 - 5 for x in cells_of(pl)] + [0]
            assert max(cols) - min(cols) < 5 and max(rows) - min(rows) < 5


# --------------------------------------------------------------------------------- score
def test_area_times_crowns_on_an_example_kingdom():
    k = kingdom(
        (0, 1, WH, 1), (0, 2, WH, 0), (1, 1, WH, 1), (1, 2, WH, 0),  # wheat 4 x 2 crowns = 8
        (-1, 0, FO, 0), (-2, 0, FO, 1), (-2, 1, FO, 0),  # forest 3 x 1 = 3
        (0, -1, LA, 0), (0, -2, LA, 0),  # lake, no crown = 0
        (1, 0, MI, 2), (2, 0, MI, 1),  # mine 2 x 3 = 6
        (-1, 1, SW, 1),  # swamp 1 x 1
        (-1, 2, SW, 0),  # joins the swamp: 2 x 1 = 2
    )
    assert score(k) == 8 + 3 + 0 + 6 + 2 + 10  # Middle Kingdom: everything within +-2
    assert recount(k) == score(k)


def test_regions_merge_through_a_new_tile():
    k = kingdom((0, 1, GR, 1), (1, 2, GR, 2))  # two separate grassland regions: 1 + 2
    assert score(k) == 1 + 2 + 10
    put_tiles(k, np.array([[0, 2, GR, 0]]))  # the bridge: 3 cells x 3 crowns
    assert score(k) == 9 + 10 == recount(k)


def test_middle_kingdom_on_partial_kingdoms():
    assert score(new_kingdoms()[0]) == 10  # the castle alone
    k = kingdom((2, 2, WH, 0), (-2, -2, WH, 0))
    assert score(k) == 10 and k[K_NOUT] == 0
    k = kingdom((0, 1, WH, 0), (0, 2, WH, 0), (0, 3, WH, 1))  # column +3: outside the centre
    assert score(k) == 3 == recount(k)


def test_harmony_needs_all_25_cells():
    tiles = [(r, c, FO if (r + c) % 2 else LA, 0)
             for r in range(-2, 3) for c in range(-2, 3) if (r, c) != (0, 0)]
    k = kingdom(*tiles[:-1])
    assert score(k) == 10
    put_tiles(k, np.array([tiles[-1]]))
    assert score(k) == 10 + 5 == recount(k)
    # a full 5x5 that is not centred on the castle: Harmony without the Middle Kingdom
    shifted = [(r, c, WH, 0) for r in range(-1, 4) for c in range(-2, 3) if (r, c) != (0, 0)]
    k = kingdom(*shifted)
    assert score(k) == 5 == recount(k)


def test_gain_matches_the_score_change():
    rng = np.random.default_rng(3)
    G, K = new_game(rng)
    pb = np.empty(MAX_PLACEMENTS, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    while G[G_DONE] == 0:
        if G[G_ROUND] > 1:
            p = current_player(G)
            d = G[G_PREV + G[G_TURN]]
            for pl in placements(K[p], d):
                k = K[p].copy()
                from gameai.kingdomino.rules import place
                place(k, pl, d)
                assert score(k) - score(K[p]) == gain(K[p], pl, d) and score(k) == recount(k)
        apply_move(G, K, random_move(G, K, rng, pb), rng, draft, False)


# ------------------------------------------------------------------------------ discards
def _round13(K, d):
    """A round-13 state in which player 0 must place domino ``d``."""
    G, _ = new_game(np.random.default_rng(0))
    G[G_ROUND] = 13
    G[G_TURN] = 0
    for i in range(4):
        G[G_PREV + i] = d + i
        G[G_PREVOWN + i] = i
        G[G_CUR + i] = -1
        G[G_CUROWN + i] = -1
    return G


def test_forced_discard_only_when_no_placement():
    # every centre cell but one filled: no two adjacent empty cells inside the 5x5 limit
    tiles = [(r, c, LA, 0) for r in range(-2, 3) for c in range(-2, 3)
             if (r, c) not in ((0, 0), (2, 2))]
    K = new_kingdoms()
    put_tiles(K[0], np.array(tiles, dtype=np.int64))
    G = _round13(K, 20)
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    pb = np.empty(MAX_PLACEMENTS, dtype=np.int64)
    n = legal_moves(G, K, mv, pb)
    assert [int(m) for m in mv[:n]] == [PLACE_DISCARD * 5 + PICK_NONE]
    # with room, a discard is never offered
    K2 = new_kingdoms()
    n = legal_moves(_round13(K2, 20), K2, mv, pb)
    assert n == 24 and all(m // 5 < PLACE_DISCARD for m in mv[:n])


def test_discard_with_a_pick_in_the_middle_rounds():
    tiles = [(r, c, LA, 0) for r in range(-2, 3) for c in range(-2, 3)
             if (r, c) not in ((0, 0), (2, 2))]
    rng = np.random.default_rng(5)
    G, K = new_game(rng)
    pb = np.empty(MAX_PLACEMENTS, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    for _ in range(4):  # round 1
        apply_move(G, K, random_move(G, K, rng, pb), rng, draft, False)
    p = current_player(G)
    put_tiles(K[p], np.array(tiles, dtype=np.int64))
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    n = legal_moves(G, K, mv, pb)
    assert n == 4 and all(m // 5 == PLACE_DISCARD for m in mv[:n])
    assert sorted(int(m % 5) for m in mv[:n]) == [0, 1, 2, 3]


# ----------------------------------------------------------------------------- draft order
def test_draft_order_as_in_the_spec():
    rng = np.random.default_rng(11)
    G, K = new_game(rng)
    pb = np.empty(MAX_PLACEMENTS, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    order = [int(G[G_ORDER + i]) for i in range(4)]
    assert sorted(order) == [0, 1, 2, 3]
    drafts = [[int(G[G_CUR + i]) for i in range(4)]]
    owners_prev = None
    for rnd in range(1, 14):
        assert G[G_ROUND] == rnd
        if rnd > 1:
            prev = [int(G[G_PREV + i]) for i in range(4)]
            assert prev == sorted(prev) == drafts[rnd - 2]
            assert [int(G[G_PREVOWN + i]) for i in range(4)] == owners_prev
        movers = []
        picked = [-1] * 4
        for t in range(4):
            p = int(current_player(G))
            movers.append(p)
            n = legal_moves(G, K, mv, pb)
            if rnd == 1:
                assert n == 4 - t and all(m // 5 == PLACE_NONE for m in mv[:n])
            elif rnd == 13:
                assert all(m % 5 == PICK_NONE for m in mv[:n])
            else:
                assert {int(m % 5) for m in mv[:n]} == {i for i in range(4)
                                                       if G[G_CUROWN + i] < 0}
            m = int(mv[rng.integers(0, n)])
            if m % 5 != PICK_NONE:
                picked[m % 5] = p
            apply_move(G, K, m, rng, draft, False)
        if rnd == 1:
            assert movers == order  # round 1: the random pick order
        else:  # the owner of the lowest-numbered domino of the previous draft first, ...
            assert movers == owners_prev
        owners_prev = picked
        if rnd < 12:
            drafts.append([int(G[G_CUR + i]) for i in range(4)])
            assert drafts[-1] == sorted(drafts[-1])
    assert G[G_DONE] == 1
    assert len(drafts) == 12
    assert sorted(sum(drafts, [])) == list(range(1, 49))  # drawn without replacement
    assert G[G_SEEN] == (1 << 48) - 1


def _brute_force_placements(k, d):
    """Every legal placement straight from the spec's words, in plain Python."""
    t1, _, t2, _ = (int(x) for x in DOMINOES[d])
    ter = k[:121]
    occupied = [x for x in range(121) if ter[x] > 0]
    out = set()
    for a in range(121):
        for o in (1, -1, 11, -11):
            b = a + o
            if not (0 <= b < 121) or ter[a] != 0 or ter[b] != 0:
                continue  # both cells empty (border cells are -1)
            cells = occupied + [a, b]
            rows = [x // 11 for x in cells]
            cols = [x % 11 for x in cells]
            if max(rows) - min(rows) >= 5 or max(cols) - min(cols) >= 5:
                continue  # the 5x5 limit
            touch_a = any(ter[a + n] in (t1, 7) for n in (1, -1, 11, -11))
            touch_b = any(ter[b + n] in (t2, 7) for n in (1, -1, 11, -11))
            if touch_a or touch_b:
                out.add((a, b) if (t1, DOMINOES[d, 1]) != (t2, DOMINOES[d, 3])
                        else frozenset((a, b)))
    return out


def test_generator_agrees_with_a_brute_force_reading_of_the_rules():
    rng = np.random.default_rng(8)
    pb = np.empty(MAX_PLACEMENTS, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    checked = 0
    for _ in range(3):
        G, K = new_game(rng)
        while G[G_DONE] == 0:
            p = current_player(G)
            for d in (1, 13, 20, 48):  # a same-terrain domino and three mixed ones
                got = placements(K[p], d)
                want = _brute_force_placements(K[p], d)
                same = DOMINOES[d, 0] == DOMINOES[d, 2]
                mine = {frozenset(cells_of(pl)) if same else cells_of(pl) for pl in got}
                assert len(got) == len(mine) and mine == want
                checked += 1
            apply_move(G, K, random_move(G, K, rng, pb), rng, draft, False)
    assert checked == 3 * 52 * 4
