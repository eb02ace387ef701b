"""Rules of Frank's Zoo from hand-made positions (paper §2 and the chapter spec)."""

import numpy as np
import pytest
from numba import njit

from gameai.frankszoo.decks import get_deck, make_test_deck
from positions import ORIG, SP, T, hand

from gameai.frankszoo.rules import (
    ACT_SKIP,
    MAX_MOVES,
    MAX_TYPES,
    NONE_ID,
    PASS_ID,
    SP_DEF,
    SP_NDEF,
    ST_CUR,
    ST_DONE,
    ST_FIRST,
    ST_LEN,
    ST_PLACE,
    ST_SCORE,
    ST_TT,
    apply_action,
    apply_move,
    apply_pass,
    apply_skip,
    can_beat,
    decode_move_id,
    gen_moves,
    init_state,
    move_id,
    n_opening_moves,
    opening_move,
    randint,
    random_action,
    rule_switches,
)




def moves(h, table=None, deck=ORIG, sp=SP):
    mv = np.empty((MAX_MOVES, 4), dtype=np.int64)
    tt, tn = (-1, 0) if table is None else table
    k = gen_moves(h, tt, tn, deck.beats, sp, mv)
    return {tuple(int(x) for x in mv[i]) for i in range(k)}


def test_original_deck_matches_table_1():
    assert ORIG.n_cards == 60 and ORIG.n_types == 13
    assert ORIG.beats.sum() == 29  # the spec's 29 predator edges
    assert ORIG.beats[T["mouse"], T["elephant"]]
    assert not ORIG.beats[:, T["whale"]].any()  # nothing eats the whale
    assert set(np.flatnonzero(ORIG.beats[:, T["mosquito"]])) == {T["hedgehog"], T["fish"], T["mouse"]}


def test_test_decks_are_strict_hierarchies():
    for k in range(2, 14):
        d = make_test_deck(k)
        assert d.n_cards == 4 * k
        for a in range(k):
            for b in range(k):
                assert d.beats[a, b] == (a > b)
    with pytest.raises(ValueError, match="deck"):
        get_deck("test14")


def test_opening_moves_any_count_of_one_type():
    h = hand(perch=2, fish=1)
    assert moves(h) == {(T["perch"], 1, 0, 0), (T["perch"], 2, 0, 0), (T["fish"], 1, 0, 0)}


def test_mosquito_joins_elephants_only_with_a_real_elephant():
    # "three elephants and one mosquito represent four elephants"
    h = hand(elephant=3, mosquito=1)
    assert (T["elephant"], 3, 1, 0) in moves(h)
    assert (T["mosquito"], 1, 0, 0) in moves(h)  # a mosquito alone is a normal card
    h = hand(mosquito=2, fish=1)
    assert not any(m[2] for m in moves(h))  # no elephant: no mosquito-as-elephant
    # exactly one mosquito may join
    assert not any(m[0] == T["elephant"] and m[2] > 1 for m in moves(hand(elephant=1, mosquito=3)))


def test_chameleon_replaces_one_card_never_alone():
    # "one perch and one joker represent two perches"
    h = hand(perch=1, chameleon=1)
    assert moves(h) == {(T["perch"], 1, 0, 0), (T["perch"], 1, 0, 1)}
    assert moves(hand(chameleon=1)) == set()  # stuck
    # with elephant + mosquito too
    assert (T["elephant"], 2, 1, 1) in moves(hand(elephant=2, mosquito=1, chameleon=1))


def test_predator_defeat_needs_same_count():
    # two perches on the table: two whales (predator) beat it, one whale does not
    h = hand(whale=3, fish=1)
    got = moves(h, (T["perch"], 2))
    assert (T["whale"], 2, 0, 0) in got
    assert (T["whale"], 1, 0, 0) not in got and (T["whale"], 3, 0, 0) not in got
    assert (T["fish"], 1, 0, 0) not in got


def test_similarity_defeat_is_exactly_one_more():
    h = hand(fox=4)
    got = moves(h, (T["fox"], 2))
    assert got == {(T["fox"], 3, 0, 0)}


def test_mosquito_elephant_is_beaten_by_mouse_and_counts_as_elephants():
    # 2 elephants + mosquito = 3 elephants: beaten by 3 mice, or 4 elephants
    got = moves(hand(mouse=3, elephant=4), (T["elephant"], 3))
    assert got == {(T["mouse"], 3, 0, 0), (T["elephant"], 4, 0, 0)}
    # a chameleon completes a predator set: 2 mice + chameleon beat 3 elephants
    assert (T["mouse"], 2, 0, 1) in moves(hand(mouse=2, chameleon=1), (T["elephant"], 3))


def test_mosquitoes_on_the_table_are_eaten_by_hedgehog_fish_mouse():
    got = moves(hand(hedgehog=1, fish=1, mouse=1, whale=1), (T["mosquito"], 1))
    assert {m[0] for m in got} == {T["hedgehog"], T["fish"], T["mouse"]}


def test_move_ids_roundtrip_and_are_distinct():
    ids = set()
    for t in range(13):
        for cnt in range(1, 8):
            for mq in (0, 1):
                for ch in (0, 1):
                    n = cnt - mq - ch
                    if n < 1:
                        continue
                    mid = move_id(t, n, mq, ch)
                    assert decode_move_id(mid) == (t, cnt, mq, ch)
                    ids.add(mid)
    assert PASS_ID not in ids and NONE_ID not in ids and max(ids) < PASS_ID


def test_can_beat_agrees_with_move_generation():
    rng = np.random.default_rng(5)
    mv = np.empty((MAX_MOVES, 4), dtype=np.int64)
    for _ in range(3000):
        h = np.minimum(rng.integers(0, 3, ORIG.n_types), ORIG.counts)
        tt = int(rng.integers(0, 12))
        tn = int(rng.integers(1, 6))
        k = gen_moves(h, tt, tn, ORIG.beats, SP, mv)
        assert can_beat(h, tt, tn, ORIG.beats, SP) == (k > 0)


def _state(hands, start=0):
    st = np.empty(ST_LEN, dtype=np.int64)
    init_state(st, hands, start, SP)
    return st


def test_trick_returns_to_last_player_after_all_others_pass():
    hands = np.stack([hand(fish=2), hand(whale=1), hand(perch=1), hand(mouse=1)])
    st = _state(hands)
    apply_move(hands, st, T["fish"], 1, 0, 0, SP)  # player 0 opens one fish
    for _ in range(3):
        apply_pass(hands, st, SP)
    assert st[ST_TT] == -1 and st[ST_CUR] == 0  # new opening for player 0


def test_lead_goes_left_when_last_player_is_out():
    hands = np.stack([hand(fish=1), hand(whale=1), hand(perch=1), hand(mouse=1)])
    st = _state(hands)
    apply_move(hands, st, T["fish"], 1, 0, 0, SP)  # player 0 goes out first
    assert st[ST_SCORE + 0] == 4 and st[ST_FIRST] == 0 and st[ST_CUR] == 1
    apply_pass(hands, st, SP)
    apply_pass(hands, st, SP)
    assert st[ST_TT] >= 0  # player 3 has still to answer
    apply_pass(hands, st, SP)
    assert st[ST_TT] == -1 and st[ST_CUR] == 1  # the next player on the left who holds cards


def test_scores_4_3_2_0_and_game_end():
    hands = np.stack([hand(fish=1), hand(whale=1), hand(perch=1), hand(mouse=1)])
    st = _state(hands)
    apply_move(hands, st, T["fish"], 1, 0, 0, SP)  # p0 out: 4
    apply_move(hands, st, T["whale"], 1, 0, 0, SP)  # p1 whale eats fish, out: 3
    apply_pass(hands, st, SP)  # p2 cannot beat a whale
    apply_pass(hands, st, SP)  # p3
    assert st[ST_TT] == -1 and st[ST_CUR] == 2
    apply_move(hands, st, T["perch"], 1, 0, 0, SP)  # p2 out: 2, p3 last: 0
    assert st[ST_DONE] == 1
    assert [st[ST_SCORE + p] for p in range(4)] == [4, 3, 2, 0]
    assert [st[ST_PLACE + p] for p in range(4)] == [0, 1, 2, 3]


def test_player_with_only_the_chameleon_is_skipped_and_ends_last():
    hands = np.stack([hand(chameleon=1), hand(fish=1), hand(perch=2), hand(mouse=1)])
    st = _state(hands, start=0)
    mv = np.empty((MAX_MOVES, 4), dtype=np.int64)
    assert random_action(hands, st, ORIG.beats, SP, mv, np.random.default_rng(0)) == ACT_SKIP
    apply_skip(st, SP)
    assert st[ST_CUR] == 1 and st[ST_TT] == -1
    rng = np.random.default_rng(1)
    while not st[ST_DONE]:
        idx = random_action(hands, st, ORIG.beats, SP, mv, rng)
        apply_action(hands, st, mv, idx, SP)
    assert st[ST_PLACE + 0] == 3 and st[ST_SCORE + 0] == 0
    assert sorted(st[ST_SCORE + p] for p in range(4)) == [0, 2, 3, 4]


def test_pass_rules_differ_only_when_following():
    hands = np.stack([hand(fish=2), hand(whale=1), hand(perch=1), hand(mouse=1)])
    mv = np.empty((MAX_MOVES, 4), dtype=np.int64)
    forced = rule_switches(ORIG, "forced")
    st = _state(hands)
    apply_move(hands, st, T["fish"], 1, 0, 0, SP)  # p1 holds a whale that eats it
    rng = np.random.default_rng(0)
    acts = {random_action(hands, st, ORIG.beats, forced, mv, rng) for _ in range(50)}
    assert acts == {0}  # forced: never passes while it can play
    acts = {random_action(hands, st, ORIG.beats, SP, mv, rng) for _ in range(200)}
    assert acts == {0, -1}  # uniform: move or pass
    with pytest.raises(ValueError, match="pass_rule"):
        rule_switches(ORIG, "sometimes")


# --- the fast paths of the engine against their plain definitions --------------------------
# Stored results are keyed by (seed, config, index) and the code: the engine must draw the same
# random numbers and list the same moves in the same order as the plain enumeration.


@njit(cache=True)
def _randint_draws(rng, bounds):
    out = np.empty(bounds.shape[0], dtype=np.int64)
    for i in range(bounds.shape[0]):
        out[i] = randint(rng, bounds[i])
    return out


@njit(cache=True)
def _integers_draws(rng, bounds):
    out = np.empty(bounds.shape[0], dtype=np.int64)
    for i in range(bounds.shape[0]):
        out[i] = rng.integers(0, bounds[i])
    return out


def test_randint_draws_what_generator_integers_draws():
    bounds = np.concatenate([np.arange(1, 300), [2**16 + 1, 2**31, 2**32 - 1, 3, 1, 1, 7]])
    bounds = np.tile(bounds, 20)
    a, b, c = (np.random.default_rng(42) for _ in range(3))
    got = _randint_draws(a, bounds)
    assert np.array_equal(got, _integers_draws(b, bounds))  # numba's own Generator.integers
    assert np.array_equal(got, [c.integers(0, n) for n in bounds])  # numpy's
    assert a.bit_generator.state == b.bit_generator.state == c.bit_generator.state


def _plain_moves(h, tt, tn, deck, sp):
    """Definitions 3-4 enumerated over every type, count, mosquito and chameleon, in order."""
    ele, mos, cha = deck.elephant, deck.mosquito, deck.chameleon
    has_cha = int(cha >= 0 and h[cha] > 0)
    has_mos = int(mos >= 0 and h[mos] > 0)
    out = []
    for t in range(deck.n_types):
        if t == cha:
            continue
        for n in range(1, h[t] + 1):
            for mq in range(has_mos + 1 if t == ele else 1):
                for ch in range(has_cha + 1):
                    cnt = n + mq + ch
                    if tt < 0 or (cnt == tn and deck.beats[t, tt]) or (t == tt and cnt == tn + 1):
                        out.append((t, n, mq, ch))
    return out


def _random_hand(rng, deck):
    h = np.minimum(rng.integers(0, 6, deck.n_types), deck.counts)
    h[rng.random(deck.n_types) < 0.3] = 0
    return h


@pytest.mark.parametrize("name", ["original", "test2", "test7", "test13"])
def test_move_lists_match_the_plain_enumeration(name):
    deck = get_deck(name)
    sp = rule_switches(deck)
    rng = np.random.default_rng(17)
    mv = np.empty((MAX_MOVES, 4), dtype=np.int64)
    row = np.empty((MAX_MOVES, 4), dtype=np.int64)
    main_types = [t for t in range(deck.n_types) if t != deck.chameleon]
    for _ in range(2000):
        h = _random_hand(rng, deck)
        tt = -1 if rng.random() < 0.3 else int(rng.choice(main_types))
        tn = int(rng.integers(1, 8))
        k = gen_moves(h, tt, tn, deck.beats, sp, mv)
        assert [tuple(int(x) for x in mv[i]) for i in range(k)] == _plain_moves(h, tt, tn, deck, sp)
        if tt < 0:  # RandomAI's opening: counted, then one row written
            assert n_opening_moves(h, sp) == k
            for i in range(k):
                opening_move(h, i, sp, row)
                assert np.array_equal(row[i], mv[i])


def test_rule_switches_list_the_defeaters_of_each_type():
    for name in ("original", "test2", "test13"):
        deck = get_deck(name)
        sp = rule_switches(deck)
        for tt in range(deck.n_types):
            listed = list(sp[SP_DEF + tt * MAX_TYPES:SP_DEF + tt * MAX_TYPES + sp[SP_NDEF + tt]])
            expected = [t for t in range(deck.n_types)
                        if t != deck.chameleon and (deck.beats[t, tt] or t == tt)]
            assert listed == expected
    sp = rule_switches(ORIG)
    sp[0] = -5  # a caller's edit must not leak into the next call's array
    assert rule_switches(ORIG)[0] == ORIG.n_types
