"""gameai: engines, agents and experiments behind the reproducible game-AI book."""

from .core import jit as _jit

__version__ = "0.1.0"

# Before any engine module compiles: numba's cache is keyed by the package's source (see
# gameai.core.jit for why numba's own invalidation is not enough).
NUMBA_CACHE_DIR = _jit.configure()
