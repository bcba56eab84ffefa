"""The table companion for in-person Mafia clubs."""

__version__ = "0.1.0"
