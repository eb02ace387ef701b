"""gameai: engines, agents and experiments behind the reproducible game-AI book."""

__version__ = "0.1.0"
