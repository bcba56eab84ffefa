"""The table companion for in-person Mafia clubs."""

# first of all: whether the rules engine's compiled modules may be loaded (engine_build.py)
from .engine_build import BUILD as ENGINE_BUILD

__all__ = ["ENGINE_BUILD"]
__version__ = "0.1.0"
