"""A game's protocol sheet: seats, names, roles, fouls, who left when and how, the checks, the
winner and the host, in the game's language; as JSON and as a printable PDF (reportlab, with
a font that has Georgian and Cyrillic)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from ..paths import write_private
from ..rules import run_script
from ..rules.roles import ROLE
from ..sound.catalogue import role_name
from ..words import entries
from .game import GameRecord

#: the sheet's words are the catalogues' `sheet:` entries (table_app/locale/<lang>.po):
#: headings by their key, a cause of leaving as cause_..., a side as side_..., a check's
#: result as result_...
#: the seat table's columns (mm, 180 in all: A4 less its margins), each wide enough for
#: its heading's longest word in every language (a Georgian "ადგილი" ran into "სახელი"),
#: and the role's for "Мирный житель" on one line, so that 30 seats' rows fit one page
COLUMNS = (("seat", 19), ("name", 44), ("role", 36), ("fouls", 23), ("out", 58))


def result_word(result: str, lang: str) -> str:
    """A check's result: red, black, no, or the role a search found."""
    if known(result, "result_"):
        return w(result, lang, "result_")
    return role_name(result, lang) if result in ROLE else result


def seat_name(name: str, seat: int) -> str:
    """A seat's name on the sheet: an unnamed seat (recorded as "seat N") has none."""
    return "" if name == f"seat {seat}" else name


def w(key: str, lang: str, group: str = "") -> str:
    """A word of the sheet in `lang` (its English where the catalogue lacks it)."""
    entry = entries("sheet").get(group + key, {})
    return entry.get(lang) or entry.get("en") or key


def known(key: str, group: str) -> bool:
    return group + key in entries("sheet")


def phase_word(phase: str, lang: str) -> str:
    kind, _, n = phase.partition(" ")
    return f"{w(kind, lang)} {n}".strip()


def cause_word(by: str, lang: str) -> str:
    if known(by, "cause_"):
        return w(by, lang, "cause_")
    if known(by, "side_"):
        return w(by, lang, "side_")
    return role_name(by, lang) if by in ROLE else by


def spoken(script: str, lang: str) -> list[str]:
    """What the table said through a game, in `lang`: the voice's own lines (its
    catalogue's texts), each phase and vote as the room heard it."""
    from ..sound.catalogue import text
    from ..sound.narration import Narrator
    replay = run_script(script)
    narrator = Narrator(lang, replay.game.rules.revote)
    return [" ".join(text(clip, lang) or clip for clip in line)
            for _, _, effects in replay.steps for fx in effects for line in narrator.lines(fx)]


def protocol_data(rec: GameRecord) -> dict[str, Any]:
    """Everything the sheet shows, in the game's language (the JSON form of the sheet)."""
    lang = rec.lang
    outcome = run_script(rec.script).outcome()
    winner = rec.winner or ""
    return {
        "game": rec.id, "lang": lang, "date": rec.ended[:10], "format": rec.format,
        "players": rec.players, "host": rec.host, "club": rec.club,
        "winner": w(winner, lang, "side_") if known(winner, "side_") else (
            role_name(winner, lang) if winner in ROLE else winner),
        "seats": [{"seat": s.seat, "name": seat_name(s.name, s.seat),
                   "role": role_name(s.role, lang),
                   "fouls": s.fouls,
                   "out": "" if s.survived else
                   f"{phase_word(s.out_phase or '', lang)}: {cause_word(s.out_by or '', lang)}"}
                  for s in rec.seats],
        "checks": [{"phase": phase_word(c.phase, lang), "by": role_name(c.by, lang),
                    "seat": c.seat, "result": result_word(c.result, lang)}
                   for c in outcome.checks],
        "phases": phases(rec.script, lang),
    }


def phases(script: str, lang: str) -> list[dict[str, str]]:
    """The game phase by phase, as a club's protocol keeps it: each day's nominations (who
    put up whom) and votes (each ballot's totals), the fouls given in each phase (night or
    day), and who left in it. Phases where none of these happened are left out."""
    from ..rules import effects as E
    out: list[dict[str, str]] = []
    row: dict[str, list[str]] = {}
    label = ""

    def close() -> None:
        if label and any(row.values()):
            out.append({"phase": phase_word(label, lang),
                        **{k: ", ".join(v) if k != "votes" else "; ".join(v)
                           for k, v in row.items()}})

    for _, _, effects in run_script(script).steps:
        for fx in effects:
            if isinstance(fx, E.PhaseBegins):
                close()
                label = f"{fx.phase} {fx.number}"
                row = {"nominations": [], "votes": [], "fouls": [], "out": []}
            elif not label:
                continue
            elif isinstance(fx, E.Nominated):
                row["nominations"].append(f"{fx.by} \u2192 {fx.target}")
            elif isinstance(fx, E.VoteTotals):
                totals = ", ".join(f"\u2116{s} \u2014 {n}" if s else str(n)
                                   for s, n in fx.totals) or "0"
                row["votes"].append(f"{w(fx.kind, lang, 'vote_')}: {totals}")
            elif isinstance(fx, E.FoulGiven):
                row["fouls"].append(f"\u2116{fx.seat} ({fx.count})")
            elif isinstance(fx, E.Eliminated):
                row["out"].append(f"\u2116{fx.seat} ({cause_word(fx.by, lang)})")
    close()
    return out


FONT = "DejaVuSans"
FONT_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",)


def _font() -> str:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if FONT in pdfmetrics.getRegisteredFontNames():
        return FONT
    for path in FONT_FILES:
        if Path(path).is_file():
            pdfmetrics.registerFont(TTFont(FONT, path))
            return FONT
    import pygame  # its wheel ships a font (no Georgian, though)
    fallback = Path(pygame.__file__).parent / "freesansbold.ttf"
    pdfmetrics.registerFont(TTFont(FONT, str(fallback)))
    return FONT


def protocol_pdf(rec: GameRecord, path: Path) -> Path:
    """The printable sheet (A4)."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    font = _font()
    data = protocol_data(rec)
    lang = rec.lang
    body = ParagraphStyle("body", fontName=font, fontSize=10, leading=13)
    head = ParagraphStyle("head", fontName=font, fontSize=16, leading=20, spaceAfter=6)
    story: list[Any] = [
        Paragraph(f"{w('title', lang)}: {_esc(_title(data['format'], lang))}, {data['players']} "
                  f"{w('players', lang)}", head),
        Paragraph(f"{w('date', lang)}: {data['date']} &nbsp; {w('host', lang)}: "
                  f"{_esc(data['host'] or '-')}"
                  + (f" &nbsp; {w('club', lang)}: {_esc(data['club'])}" if data["club"] else ""),
                  body),
        Paragraph(f"{w('game', lang)}: {data['game']}", body),
        Spacer(1, 4 * mm),
    ]
    # headings as paragraphs: a word too long for its column wraps instead of running on
    rows: list[list[Any]] = [[Paragraph(_esc(w(key, lang)), body) for key, _ in COLUMNS]]
    rows += [[str(s["seat"]), Paragraph(_esc(s["name"]), body), Paragraph(_esc(s["role"]), body),
              str(s["fouls"]) if s["fouls"] else "", Paragraph(_esc(s["out"]), body)]
             for s in data["seats"]]
    # (a table that runs onto a second page repeats its headings there)
    table = Table(rows, colWidths=[width * mm for _, width in COLUMNS], repeatRows=1)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), font, 10),
        ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
        ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.9, 0.9, 0.9)),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ]))
    story += [table, Spacer(1, 5 * mm)]
    if data["checks"]:
        story.append(Paragraph(w("checks", lang), body))
        checks = [[c["phase"], c["by"], str(c["seat"]), c["result"]] for c in data["checks"]]
        ct = Table(checks, colWidths=[30 * mm, 40 * mm, 16 * mm, 30 * mm], hAlign="LEFT")
        ct.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), font, 10),
                                ("GRID", (0, 0), (-1, -1), 0.4, colors.grey)]))
        story += [ct, Spacer(1, 5 * mm)]
    if data["phases"]:
        # each phase's nominations, votes, fouls and who left, as a club's protocol keeps
        story.append(Paragraph(w("by_day", lang), body))
        keys = ("phase", "nominations", "votes", "fouls", "out")
        small = ParagraphStyle("small", fontName=font, fontSize=9, leading=11)
        prow: list[list[Any]] = [[Paragraph(_esc(w(k, lang)), small) for k in keys]]
        prow += [[Paragraph(_esc(ph.get(k, "")), small) for k in keys] for ph in data["phases"]]
        pt = Table(prow, colWidths=[18 * mm, 34 * mm, 56 * mm, 26 * mm, 46 * mm],
                   repeatRows=1, hAlign="LEFT")
        pt.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), font, 9),
                                ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                                ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.9, 0.9, 0.9)),
                                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                                ("TOPPADDING", (0, 0), (-1, -1), 1),
                                ("BOTTOMPADDING", (0, 0), (-1, -1), 2)]))
        story += [pt, Spacer(1, 5 * mm)]
    story.append(Paragraph(f"{w('winner', lang)}: {_esc(data['winner'])}", head))
    # signed by the host and a witness, as a club files it
    story.append(Spacer(1, 6 * mm))
    signs = Table([[f"{w('sign_host', lang)}: ", "", f"{w('sign_witness', lang)}: ", ""]],
                  colWidths=[42 * mm, 45 * mm, 45 * mm, 45 * mm], hAlign="LEFT")
    signs.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), font, 10),
                               ("LINEBELOW", (1, 0), (1, 0), 0.6, colors.black),
                               ("LINEBELOW", (3, 0), (3, 0), 0.6, colors.black),
                               ("VALIGN", (0, 0), (-1, -1), "BOTTOM")]))
    story.append(signs)
    # built in memory, written 0600 (every role of the game is on it)
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, title=f"{w('title', lang)} {rec.id}",
                            leftMargin=15 * mm, rightMargin=15 * mm, topMargin=15 * mm,
                            bottomMargin=15 * mm)
    doc.build(story)
    return write_private(path, buf.getvalue())


def _title(fmt_id: str, lang: str = "en") -> str:
    """The format's name in the sheet's language (a club's own format: its title)."""
    from ..words import known, t
    if known(f"format_{fmt_id}"):
        return t(f"format_{fmt_id}", lang)
    try:
        from ..rules import find_format
        return find_format(fmt_id).title
    except Exception:
        return fmt_id


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
