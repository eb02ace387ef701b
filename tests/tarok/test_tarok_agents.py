"""Sampling (paper §5) and the players: samples agree with everything the player knows; every
agent plays only legal cards; the perfect-information program finds the known best card; the
talon, discard, announcement and bidding logic returns legal choices."""

import numpy as np
import pytest
from tarok_positions import position, random_positions

import gameai  # noqa: F401
from gameai.tarok import agents as A
from gameai.tarok import rules as R
from gameai.tarok import sampling as M


def _check_sample(S, me, T):
    assert T[R.S_HAND + me] == S[R.S_HAND + me]
    assert T[R.S_PLAYED] == S[R.S_PLAYED]
    for p in range(3):
        assert R.popcount(T[R.S_HAND + p]) == R.popcount(S[R.S_HAND + p])
        assert T[R.S_TRICK + p] == S[R.S_TRICK + p]
        assert T[R.S_PILE + p] & S[R.S_PLAYED] == S[R.S_PILE + p] & S[R.S_PLAYED]
        assert R.popcount(T[R.S_PILE + p]) == R.popcount(S[R.S_PILE + p])
        for s in range(5):
            if S[R.S_VOID + p] >> s & 1:
                assert T[R.S_HAND + p] & R.SUIT_MASK[s] == 0  # shown voids respected
        m = T[R.S_PILE + p]
        assert T[R.S_PTS3 + p] == 3 * R.raw_points(m) - 2 * R.popcount(m)
    allc = 0
    n = 0
    for p in range(3):
        for x in (T[R.S_HAND + p], T[R.S_PILE + p]):
            allc |= int(x)
            n += R.popcount(x)
    for i in range(6):
        if T[R.S_TALON + i] >= 0:
            allc |= 1 << int(T[R.S_TALON + i])
            n += 1
    allc |= int(R.trick_mask(T))
    n += int(S[R.S_NT])
    assert allc == R.ALL_CARDS and n == 54
    d = S[R.S_DECL]
    if d >= 0 and d != me:  # the declarer's laid-away cards: no kings, no hidden taroks
        disc = T[R.S_PILE + d] & ~T[R.S_PLAYED]
        assert disc & R.KINGS == 0
        assert disc & R.TAROKS & ~S[R.S_SHOWN] == 0
    # the turned-up talon cards the declarer did not take stay with the opponents
    if d >= 0 and R.TALON_TAKE[S[R.S_CONTRACT]]:
        for p in range(3):
            if p != d:
                assert T[R.S_HAND + p] & S[R.S_TALON_SEEN] & ~S[R.S_HAND + p] == 0 or p == me


def test_samples_consistent_with_what_the_player_knows():
    rng = np.random.default_rng(0)
    out = np.zeros(R.S_LEN, dtype=np.int64)
    differ = 0
    for S in random_positions(300, 9, seed=21):
        me = S[R.S_TURN]
        for _ in range(3):
            assert M.sample_state(S, me, rng, out)
            _check_sample(S, me, out)
            differ += any(out[R.S_HAND + p] != S[R.S_HAND + p] for p in range(3))
    assert differ > 800  # the hidden hands really are resampled


def test_agents_play_legal_cards_whole_games():
    rng = np.random.default_rng(1)
    names = ["random", "rule", "tarokist", "mcab", "cheat"]
    for i, name in enumerate(names):
        rows = np.stack([A.agent_row(name, samples=2, depths=(3, 3, 3))] +
                        [A.agent_row(names[(i + k) % 5], samples=2, depths=(3, 3, 3))
                         for k in (1, 2)])
        for contract in (R.THREE, R.KLOP, R.BEGGAR, R.SOLO):
            hands, talon = R.deal(rng)
            S = R.new_state(hands, talon, contract, i % 3, 0)
            if R.TALON_TAKE[contract]:
                R.exchange(S, 1, R.random_discards(S, 1, rng))
            while not S[R.S_DONE]:
                legal = R.legal_mask(S)
                c = A.choose_card(S, rows[S[R.S_TURN]], rng, *_tables_args(), np.zeros(64),
                                  np.zeros(2, dtype=np.int64))
                assert legal >> c & 1
                R.play(S, c)


def _tables_args():
    from gameai.tarok.search import shared_tables

    return shared_tables().args()


def test_cheat_cashes_the_king_first():
    S = position([["HK", "HQ", "S7"], ["H4", "XX", "II"], ["H3", "H2", "C7"]], decl=0)
    rng = np.random.default_rng(2)
    row = A.agent_row("cheat")
    c = A.choose_card(S, row, rng, *_tables_args(), np.zeros(64), np.zeros(2, dtype=np.int64))
    assert R.card_name(c) == "HK"


def test_unknown_agent_name():
    with pytest.raises(ValueError, match="agent must be one of"):
        A.agent_row("gib")


def test_discard_candidates_void_suits_and_are_legal():
    hand = R.mask_of(["Sk", "XXI", "I", "HK", "H4", "D3", "D4", "SK", "S7", "S8", "CK", "C7",
                      "C8", "C9", "C10", "CQ", "X", "XI", "XII"])
    cands = A.discard_candidates(hand, 3)
    assert cands
    for d in cands:
        assert R.popcount(np.int64(d)) == 3 and d & ~hand == 0
        assert d & (int(R.KINGS) | int(R.TRULA)) == 0
    # diamonds (D3, D4) can be voided: some candidate lays both away
    dmask = R.mask_of(["D3", "D4"])
    assert any(d & dmask == dmask for d in cands)


def test_tarokist_talon_announcements_and_bidding_small():
    rng = np.random.default_rng(3)
    hands, talon = R.deal(rng)
    t = A.Tarokist(bid_sims=1, talon_sims=1)
    g, disc, ann, mean = t.choose_talon(hands, talon, R.THREE, 0, rng)
    S = R.new_state(hands, talon, R.THREE, 0, 0)
    assert R.exchange(S, g, np.int64(disc))
    assert ann & ~(R.ANN_TRULA | R.ANN_KINGS | R.ANN_PAGAT) == 0
    best = t.viable(1, int(hands[1]), rng)
    assert best in (R.KLOP, R.THREE, R.TWO, R.ONE, R.SOLO, R.BEGGAR)
    m0 = t.margin
    t.adapt(declared=True, won=False)
    assert t.margin == m0 + 1
    t.adapt(declared=False, won=None, would_have_won=True)
    assert t.margin == m0
    t.adapt_announcements(R.ANN_TRULA, [0, 1, 0, 0])
    assert t.ann == pytest.approx([0.6, 0.5, 0.7])
