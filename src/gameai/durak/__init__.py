"""Durak ("the Fool"): the article "Writing AI for the Fool (Part 1)" and its author's OpenFool.

* :mod:`.rules` - podkidnoy durak engine (numba), 2-5 players, 24/32/36/52 cards, rule switches
  (attack limit, throwers, refill order, draws; OpenFool's behaviour or the standard rules) and
  transfer (perevodnoy) as an option.
* :mod:`.evaluation` - the article's hand evaluator exactly as OpenFool computes it, with its
  switches (article / deck-scaled card values, Int / true division, same-rank bonus x1 / x100).
* :mod:`.agents` - RandomAI, SmallestAI, EvalAI (OpenFool's decision rules) and its ablations,
  and, beyond the article, a determinised Monte Carlo player (MC-AI).
* :mod:`.experiments` - task functions ``(config, index, rng) -> rows``.
* :mod:`.paper` - the article's numbers and the claim ids; :mod:`.bench` - ``gameai bench durak``.
"""
