"""Errors the rules raise: malformed input versus input the rules forbid."""

from __future__ import annotations


class RulesError(Exception):
    """Base of every error the rules package raises on purpose."""


class InvalidAction(RulesError):
    """The action is malformed: an unknown role, a seat that does not exist, a wrong shape."""


class IllegalAction(RulesError):
    """The action is well formed but the rules forbid it now (a dead seat voting, ...)."""


class FormatError(RulesError):
    """A format file is inconsistent: an unknown role, a composition that does not add up."""


class GameTooLong(RuntimeError):
    """A bot game that did not end: a rules bug (the soak test looks for these)."""
