"""Agents on positions with a known best move (paper §3 and §4), and the agent registry."""

import numpy as np
import pytest

from gameai.frankszoo.agents import (
    ABL_SEQUENCE,
    ABL_WEIGHTS,
    AG_ABLATE,
    agent_row,
    heuristic_action,
    heuristic_bounds,
    mc_action,
    winning_sequence,
)
from positions import ORIG, SP, T, hand

from gameai.frankszoo.rules import (
    ACT_PASS,
    MAX_MOVES,
    N_IDS,
    ST_LEN,
    ST_PLAYED,
    apply_move,
    apply_pass,
    can_beat,
    init_state,
)

W0 = np.zeros((N_IDS, N_IDS))



def position(hands, table=None, start=0, played=0):
    """A state with ``start`` to act; ``table=(type, count, player)`` puts a move on the table."""
    hands = np.stack(hands)
    st = np.empty(ST_LEN, dtype=np.int64)
    if table is None:
        init_state(st, hands, start, SP)
    else:
        t, n, by = table
        hands[by, t] += n  # give the cards, then play them
        init_state(st, hands, by, SP)
        apply_move(hands, st, t, n, 0, 0, SP)
        for _ in range((start - by - 1) % 4):
            apply_pass(hands, st, SP)
    st[ST_PLAYED] = played
    return hands, st


def heuristic(hands, st, hw, seed=0, pass_in_list=0, ablate=0):
    mv = np.empty((MAX_MOVES, 4), dtype=np.int64)
    idx = heuristic_action(hands, st, ORIG.beats, SP, np.asarray(hw, dtype=float), mv,
                           np.random.default_rng(seed), pass_in_list, ablate)
    return None if idx < 0 else tuple(int(x) for x in mv[idx])


OPP = [hand(whale=1, fish=3, mouse=2), hand(whale=1, crocodile=2, hedgehog=3), hand(whale=2, lion=3)]


def test_bounds_equations_2_3():
    assert heuristic_bounds(0, 4) == (15.0, 30.0)
    assert heuristic_bounds(10, 4) == (11.0, 22.0)


def test_heuristic_plays_the_winning_move():
    hands, st = position([hand(fish=2)] + OPP)
    assert heuristic(hands, st, np.zeros(13)) == (T["fish"], 2, 0, 0)


def test_heuristic_never_keeps_only_the_chameleon():
    # two seals on the table; 2 whales would leave the lone chameleon (Definition 6)
    hands, st = position([hand(whale=2, chameleon=1), *OPP], table=(T["seal"], 2, 3), start=0)
    hw = np.full(13, 100.0)
    for seed in range(20):
        assert heuristic(hands, st, hw, seed) == (T["whale"], 1, 0, 1)


def test_heuristic_starts_a_winning_sequence_with_an_undefeatable_move():
    # we hold every whale: any whale move is undefeatable, and the fish comes last
    opp = [hand(fish=2, mouse=2), hand(crocodile=2, hedgehog=3), hand(lion=3, perch=1)]
    hands, st = position([hand(whale=5, fish=1), *opp])
    move = heuristic(hands, st, np.zeros(13))
    assert move[0] == T["whale"]
    pool = hands[1:].sum(axis=0)
    assert not can_beat(pool, move[0], move[1], ORIG.beats, SP)


def test_winning_sequence_definition_7():
    pool = hand(fish=2, mouse=2, crocodile=2)
    assert winning_sequence(hand(whale=3, perch=1), pool, ORIG.beats, SP)  # whales, then perch
    # perch and fish are both beatable by the pool (crocodile eats both): two defeatable groups
    assert not winning_sequence(hand(perch=1, fish=1), pool, ORIG.beats, SP)
    assert not winning_sequence(hand(chameleon=1), pool, ORIG.beats, SP)
    # the chameleon lifts a group out of reach: 1 whale + chameleon = 2 whales, nobody has 3
    pool = hand(whale=2, crocodile=2)
    assert not winning_sequence(hand(whale=1, fox=1), pool, ORIG.beats, SP)
    assert winning_sequence(hand(whale=1, fox=1, chameleon=1), hand(whale=1, crocodile=1, seal=1),
                            ORIG.beats, SP)


def test_heuristic_weights_prefer_the_bear_when_seals_would_be_split():
    # §3.4's example: to defeat a perch the AI prefers a seal to a bear (seal weighs more) ...
    hw = np.zeros(13)
    hw[T["seal"]], hw[T["polar bear"]] = 60, 40
    hands, st = position([hand(seal=1, polar_bear=1, mouse=1), *OPP], table=(T["perch"], 1, 3))
    assert heuristic(hands, st, hw) == (T["seal"], 1, 0, 0)
    # ... but holding two seals and one bear it plays the bear (the seal's weight is divided by 4)
    hands, st = position([hand(seal=2, polar_bear=1, mouse=1), *OPP], table=(T["perch"], 1, 3))
    assert heuristic(hands, st, hw) == (T["polar bear"], 1, 0, 0)


def test_heuristic_drops_strong_cards_below_L_and_passes():
    hw = np.zeros(13)
    hw[T["whale"]], hw[T["crocodile"]] = 5, 4  # below L = 15: keep them for later
    me = hand(whale=1, crocodile=1, fish=2)
    hands, st = position([me, *OPP], table=(T["perch"], 1, 3))
    assert heuristic(hands, st, hw) is None  # pass
    # late in the game L and U have fallen below the weights: the heavier move is preferred
    hands, st = position([me, *OPP], table=(T["perch"], 1, 3), played=40)
    assert heuristic(hands, st, hw) == (T["whale"], 1, 0, 0)
    # a single legal move is played at once, whatever its weight (Table 2, first step)
    hands, st = position([hand(whale=1, fish=2), *OPP], table=(T["perch"], 1, 3))
    assert heuristic(hands, st, hw) == (T["whale"], 1, 0, 0)


def mc(hands, st, name="MC-score", episodes=30, seed=0):
    mv = np.empty((MAX_MOVES, 4), dtype=np.int64)
    idx = mc_action(hands, st, ORIG.beats, SP, W0, agent_row(name, episodes), mv,
                    np.random.default_rng(seed))
    return idx, (None if idx < 0 else tuple(int(x) for x in mv[idx]))


def test_monte_carlo_plays_the_winning_move_and_avoids_the_losing_one():
    hands, st = position([hand(fish=2)] + OPP)
    assert mc(hands, st)[1] == (T["fish"], 2, 0, 0)
    hands, st = position([hand(whale=2, chameleon=1), *OPP], table=(T["seal"], 2, 3))
    for seed in range(5):
        assert mc(hands, st, seed=seed)[1] in {(T["whale"], 1, 0, 1), None}


def test_monte_carlo_weighs_passing_unless_told_not_to():
    # Beating one perch with our only whale throws away the one card nobody can beat; a pass
    # keeps it. MC-score weighs the pass as a candidate; MC-score-nopass must play a card.
    me = hand(whale=1, crocodile=1, fish=2, mouse=2, hedgehog=1)
    hands, st = position([me, *OPP], table=(T["perch"], 1, 3))
    picks = {mc(hands, st, name="MC-score-nopass", episodes=20, seed=s)[0] for s in range(8)}
    assert ACT_PASS not in picks
    picks = {mc(hands, st, name="MC-score", episodes=20, seed=s)[0] for s in range(8)}
    assert picks  # every pick is a legal action index or a pass
    assert all(p == ACT_PASS or p >= 0 for p in picks)


def test_agent_registry_rejects_unknown_names():
    with pytest.raises(ValueError, match="unknown agent 'AlphaZoo'"):
        agent_row("AlphaZoo")
    with pytest.raises(ValueError, match="episodes must be an int >= 0"):
        agent_row("MC-score", -1)


def test_monte_carlo_without_episodes_keeps_its_rules_and_picks_at_random():
    hands, st = position([hand(fish=2)] + OPP)
    assert mc(hands, st, episodes=0)[1] == (T["fish"], 2, 0, 0)  # the winning move still wins
    hands, st = position([hand(whale=1, crocodile=1, fish=2, mouse=2), *OPP],
                         table=(T["perch"], 1, 3))
    picks = {mc(hands, st, episodes=0, seed=s)[0] for s in range(40)}
    # whale, crocodile, or pass: all three candidates come up when nothing separates them
    assert len(picks) == 3 and ACT_PASS in picks


def test_heuristic_passlist_may_pass_where_heuristic_must_play():
    # Weights between L and U: no preferred move, so Table 2 ends with a random pick.
    hw = np.zeros(13)
    hw[T["whale"]], hw[T["crocodile"]] = 20, 20
    hands, st = position([hand(whale=1, crocodile=1, fish=2), *OPP], table=(T["perch"], 1, 3))
    plain = {heuristic(hands, st, hw, seed) for seed in range(40)}
    assert plain == {(T["whale"], 1, 0, 0), (T["crocodile"], 1, 0, 0)}
    passlist = {heuristic(hands, st, hw, seed, pass_in_list=1) for seed in range(40)}
    assert passlist == plain | {None}
    # "only one possible move" no longer forces the lone whale: pass is a second entry
    hands, st = position([hand(whale=1, fish=2), *OPP], table=(T["perch"], 1, 3))
    assert {heuristic(hands, st, hw, seed, pass_in_list=1) for seed in range(40)} == {
        (T["whale"], 1, 0, 0), None}
    # on an opening pass is never legal, and the winning move still comes first
    hands, st = position([hand(fish=2)] + OPP)
    assert heuristic(hands, st, hw, pass_in_list=1) == (T["fish"], 2, 0, 0)


def test_heuristic_ablations_skip_exactly_their_step():
    # The winning-sequence position above, with the fish made heavy enough (above U) to be
    # the weights' preferred move: §3.3 plays a whale first, §3.4 alone would play the fish.
    opp = [hand(fish=2, mouse=2), hand(crocodile=2, hedgehog=3), hand(lion=3, perch=1)]
    hands, st = position([hand(whale=5, fish=1), *opp])
    hw = np.zeros(13)
    hw[T["fish"]] = 100
    types = lambda ablate: {heuristic(hands, st, hw, seed, ablate=ablate)[0] for seed in range(30)}
    assert types(0) == {T["whale"]}
    assert types(ABL_WEIGHTS) == {T["whale"]}  # §3.3 still applies
    assert types(ABL_SEQUENCE) == {T["fish"]}  # straight to the weights
    assert types(ABL_SEQUENCE | ABL_WEIGHTS) == {T["whale"], T["fish"]}  # a random move
    assert agent_row("HeuristicAI-rulesonly")[AG_ABLATE] == ABL_SEQUENCE | ABL_WEIGHTS


# --- the paper configuration of HeuristicAI and the re-deal hypothesis -----------------------
def configured(hands, st, hw, config, seed=0):
    """The move of HeuristicAI as a named configuration of the chapter plays it."""
    from gameai.frankszoo.agents import agent_action
    from gameai.frankszoo.chapter import CONFIGURATIONS

    row = agent_row(CONFIGURATIONS[config]["agent"])
    mv = np.empty((MAX_MOVES, 4), dtype=np.int64)
    idx = agent_action(row, hands, st, ORIG.beats, SP, np.asarray(hw, dtype=float), W0, mv,
                       np.random.default_rng(seed))
    return None if idx < 0 else tuple(int(x) for x in mv[idx])


def test_paper_configuration_pass_in_list_disables_the_one_move_shortcut_when_following():
    hw = np.zeros(13)
    hw[T["whale"]] = 5  # far below L = 15: a strong card the weights would keep
    hands, st = position([hand(whale=1, fish=2), *OPP], table=(T["perch"], 1, 3))
    # ours: "only one possible move" plays the lone whale at once, whatever its weight
    assert {configured(hands, st, hw, "ours", s) for s in range(20)} == {(T["whale"], 1, 0, 0)}
    # paper: pass is a second entry of the list, so the weights run and drop the whale (< L)
    assert {configured(hands, st, hw, "paper", s) for s in range(20)} == {None}
    # on an opening pass is not in the list: the one-move shortcut still fires
    hands, st = position([hand(whale=1), hand(fish=3), hand(mouse=2), hand(lion=3)])
    assert configured(hands, st, hw, "paper") == (T["whale"], 1, 0, 0)


def test_paper_configuration_final_pick_can_pass():
    hw = np.zeros(13)
    hw[T["whale"]], hw[T["crocodile"]] = 20, 20  # between L = 15 and U = 30: no preferred move
    hands, st = position([hand(whale=1, crocodile=1, fish=2), *OPP], table=(T["perch"], 1, 3))
    ours = {configured(hands, st, hw, "ours", s) for s in range(60)}
    paper = [configured(hands, st, hw, "paper", s) for s in range(300)]
    assert ours == {(T["whale"], 1, 0, 0), (T["crocodile"], 1, 0, 0)}
    assert set(paper) == ours | {None}
    # pass is one of three entries of the final uniform pick
    assert 0.25 < paper.count(None) / len(paper) < 0.42
    # a move above U is still preferred over the random pick (and over the pass)
    hw[T["whale"]] = 40
    assert {configured(hands, st, hw, "paper", s) for s in range(20)} == {(T["whale"], 1, 0, 0)}


def _episode_hands(info, hands, st, idx, mv, n, seed=0):
    from gameai.frankszoo.agents import episode_start, opponents_pool

    rng = np.random.default_rng(seed)
    p = int(st[5])
    pool = opponents_pool(hands, p, SP)
    cards = np.empty(hands.sum(), dtype=np.int64)
    h2, s2 = np.empty_like(hands), np.empty_like(st)
    out = []
    for _ in range(n):
        episode_start(h2, s2, hands, st, p, idx, mv, SP, info, pool, rng, cards)
        out.append((h2.copy(), s2.copy()))
    return out


def test_redealt_episodes_never_keep_the_searchers_real_hand():
    from gameai.frankszoo.agents import INFO_DETERMINISE, INFO_REDEAL_ALL
    from gameai.frankszoo.rules import ST_SIZE, gen_moves

    me = hand(whale=3, elephant=3, crocodile=3, fish=2)
    hands, st = position([me, *OPP], table=(T["perch"], 1, 3))
    mv = np.empty((MAX_MOVES, 4), dtype=np.int64)
    k = gen_moves(hands[0], st[0], st[1], ORIG.beats, SP, mv)
    idx = next(i for i in range(k) if tuple(mv[i]) == (T["whale"], 1, 0, 0))
    after = me.copy()
    after[T["whale"]] -= 1  # the real hand once the candidate is played
    total = hands.sum(axis=0) - np.eye(13, dtype=np.int64)[T["whale"]]
    # determinisation (§4) keeps the searcher's own hand in every episode
    for h2, _ in _episode_hands(INFO_DETERMINISE, hands, st, idx, mv, 50):
        assert (h2[0] == after).all()
    redealt = _episode_hands(INFO_REDEAL_ALL, hands, st, idx, mv, 300)
    for h2, s2 in redealt:
        assert not (h2[0] == after).all()  # never the real hand (chance ~1e-8 per episode)
        assert (h2.sum(axis=0) == total).all()  # the unplayed cards, all of them
        assert [h2[q].sum() for q in range(4)] == [s2[ST_SIZE + q] for q in range(4)]
        assert s2[0] == T["whale"] and s2[1] == 1  # the candidate move is on the table
    # the searcher's episode hands draw on the opponents' cards too
    assert sum(h2[0, T["mouse"]] > 0 for h2, _ in redealt) > 30


def test_redeal_agents_are_their_paper_twins_but_for_the_episodes():
    from gameai.frankszoo.agents import AG_PERFECT, INFO_REDEAL_ALL, REDEAL

    for ai, twin in REDEAL.items():
        a, b = agent_row(ai), agent_row(twin)
        assert b[AG_PERFECT] == INFO_REDEAL_ALL and a[AG_PERFECT] == 0
        a[AG_PERFECT] = b[AG_PERFECT]
        assert (a == b).all()
