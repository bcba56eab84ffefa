"""For the screen's tests that watch a Painter draw: the arguments of one `Painter.text`
call by name, its defaults filled in (a test's painter takes `*args, **kw` and passes them
on, so a new parameter of Painter.text breaks no test)."""

from __future__ import annotations

import inspect
from types import SimpleNamespace
from typing import Any

from table_app.screen.paint import Painter

_TEXT = inspect.signature(Painter.text)


def text_args(*args: Any, **kw: Any) -> SimpleNamespace:
    """`Painter.text(surf, s, pos, ...)`'s arguments, each by its name (s, size, width...)."""
    bound = _TEXT.bind(None, *args, **kw)
    bound.apply_defaults()
    return SimpleNamespace(**{k: v for k, v in bound.arguments.items() if k != "self"})
