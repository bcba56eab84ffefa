import os

# Every test runs headless: pygame must never look for a screen or a sound card here.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# Nothing of this machine's own table reaches a test: no pairing secret, no settings, no
# controller it happens to have plugged in.
os.environ["TABLE_APP_PAD_SECRET"] = os.path.join(os.path.dirname(__file__), ".no-pad-secret")
os.environ.setdefault("TABLE_APP_SETTINGS", os.path.join(os.path.dirname(__file__),
                                                         ".no-settings.toml"))
os.environ.setdefault("TABLE_APP_PORT", "none")
