"""A club's own formats are first-class: the setup screen offers the ones in the club's
formats folder beside the built-in ones, a game and the next one are played in them and
resume in them, and a file that cannot be read is one line naming it (never a crash).

(The setup screen raised `InvalidAction: unknown format 'classic_fast'` for a game started
with --format-file, and knew no club format at all.)
"""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from table_app.rules import BUILTIN_FORMATS, club_formats
from table_app.rules.format import find_format
from table_app.screen.paint import Painter
from table_app.screen.setup import Setup, draw_setup
from table_app.table.virtual import run_virtual, virtual_table
from table_app.words import LANGS, t

ROOT = Path(__file__).resolve().parents[1]


def _club(folder: Path) -> Path:
    """A formats folder: a fast classic of 5-9 players, a broken file, a copy that kept a
    built-in's id."""
    folder.mkdir(parents=True, exist_ok=True)
    classic = (ROOT / "table_app" / "rules" / "formats" / "classic.toml").read_text()
    fast = classic.replace('id = "classic"', 'id = "classic_fast"').replace(
        'title = "Classic (Georgian, 11 players with a maniac)"', 'title = "Classic, fast"')
    fast = fast.replace("players = { min = 5, max = 11, default = 11 }",
                        "players = { min = 5, max = 9, default = 9 }")
    assert fast != classic and "Classic, fast" in fast and "max = 9" in fast
    (folder / "fast.toml").write_text(fast)
    (folder / "broken.toml").write_text(fast + "\n[[[")
    (folder / "copy.toml").write_text(classic)
    (folder / "notes.txt").write_text("not a format")
    return folder / "fast.toml"


def test_the_club_folder_gives_its_formats_and_a_line_for_each_bad_file(tmp_path: Path) -> None:
    fast = _club(tmp_path / "formats")
    found, bad = club_formats(tmp_path / "formats")
    assert set(found) == {"classic_fast"} and found["classic_fast"][1] == fast
    assert found["classic_fast"][0].title == "Classic, fast"
    assert len(bad) == 2 and all("\n" not in b for b in bad)
    assert any(b.startswith(str(tmp_path / "formats" / "broken.toml") + ": not valid TOML")
               for b in bad), bad
    assert any("copy.toml" in b and "'classic' is taken" in b for b in bad), bad
    assert club_formats(tmp_path / "none") == ({}, [])


def test_the_setup_screen_offers_the_club_formats_after_the_built_in_ones(
        tmp_path: Path) -> None:
    _club(tmp_path / "formats")
    found, _ = club_formats(tmp_path / "formats")
    setup = Setup("yakuza", 12, "en", "app", {}, house={k: f for k, (f, _) in found.items()})
    seen = [setup.fmt]
    for _ in range(len(BUILTIN_FORMATS) + 1):
        setup.command(("format",))
        seen.append(setup.fmt)
    assert seen == [*BUILTIN_FORMATS, "classic_fast", "yakuza"]
    # a game of the club's format (as --format-file starts one): its limits, its title
    setup = Setup("classic_fast", 11, "en", "app", {}, house={k: f for k, (f, _) in
                                                              found.items()})
    assert setup.limits() == (5, 9)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    p = Painter(keep=True)
    draw_setup(p, pygame.Surface((800, 480)), setup)
    assert "Classic, fast" in (p.drawn or [])
    # with no club formats the screen is as before
    plain = Setup("yakuza", 12, "en", "app", {})
    plain.command(("format",))
    assert plain.fmt == "classic" and plain.format() is find_format("classic")


def test_a_club_format_plays_the_next_game_and_resumes_in_it(tmp_path: Path) -> None:
    fast = _club(tmp_path / "formats")
    app, bots, clock, _ = virtual_table(tmp_path / "j", seed=2, fmt_id="yakuza")
    end = run_virtual(app, bots, clock)
    assert end.stage == "over"
    table = app.next_game(fmt_id="classic_fast", players=7, format_file=str(fast))
    assert table.cfg.fmt.id == "classic_fast" and table.cfg.fmt.title == "Classic, fast"
    assert app.entries[0]["format_file"] == str(fast)
    run_virtual(app, bots, clock, until=lambda t: t.game.phase == "day")
    app.close()
    again, *_ = virtual_table(tmp_path / "j", seed=2)
    try:
        assert again.resumed and again.table is not None
        assert again.table.cfg.fmt.id == "classic_fast" and again.table.cfg.players == 7
    finally:
        again.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_bad_club_file_is_said_in_the_hosts_language(lang: str) -> None:
    said = t("format_file_bad", lang)
    assert said != "format_file_bad" and (lang == "en" or said != t("format_file_bad", "en"))
