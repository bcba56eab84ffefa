import os
import tempfile

# Every test runs headless: pygame must never look for a screen or a sound card here.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# Nothing of this machine's own table reaches a test: not its pairing secret, no settings,
# no controller it happens to have plugged in.
# (a folder of this run's own, so a test that makes a secret never leaves it for the next)
_NOWHERE = tempfile.mkdtemp(prefix="table-app-tests-")
# This run's own pairing: the simulated controllers are paired with it, as an install
# pairs a table's (an unpaired table trusts no controller).
os.environ["TABLE_APP_PAD_SECRET"] = os.path.join(_NOWHERE, "pad-secret")
with open(os.environ["TABLE_APP_PAD_SECRET"], "wb") as _f:
    _f.write(b"this-test-run\n")
os.environ.setdefault("TABLE_APP_SETTINGS", os.path.join(_NOWHERE, "no-settings.toml"))
# and none of its records, names or journals: a demo or a table a test starts keeps its games
# in this run's folder (they went into the machine's own records.sqlite, where a run of an
# older checkout then met a newer schema)
os.environ["XDG_STATE_HOME"] = os.path.join(_NOWHERE, "state")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_NOWHERE, "config")
os.environ.setdefault("TABLE_APP_PORT", "none")


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _own_state_and_config(tmp_path_factory: pytest.TempPathFactory,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test its own state and config folders (journals, records, names, settings):
    nothing one test leaves is read by the next, and nothing reaches the user's own."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
