"""Kingdomino (Gedda, Lagerkvist & Butler, IEEE CIG 2018): engine, agents, experiments.

Layers: ``dominoes`` (the 48 tiles) -> ``rules`` (numba engine) -> ``policies`` (TR, GPRD, FG,
playout policies) -> ``agents`` (MCE, UCT and the registry by paper name) -> ``experiments``
(pure task functions); ``paper`` holds the paper's numbers for comparison; ``bench`` measures
playouts per second against the authors' rates.
"""
