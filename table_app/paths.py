"""Where the table keeps what it remembers on this machine."""

from __future__ import annotations

import os
from pathlib import Path


def config_dir() -> Path:
    """`$XDG_CONFIG_HOME/table-app` (`~/.config/table-app`): the settings, the players'
    names, the pad controller's pairing secret."""
    return Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / "table-app"


def state_dir() -> Path:
    """`$XDG_STATE_HOME/table-app` (`~/.local/state/table-app`): the game's journal and the
    club's records."""
    return Path(os.environ.get("XDG_STATE_HOME", Path.home() / ".local" / "state")) / "table-app"
