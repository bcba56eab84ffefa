"""The host's screen: the table, what is happening now and what he must decide, the
night's choices (while he peeks), the notes, the voice's last lines and his command
buttons."""

from __future__ import annotations

from dataclasses import replace
from itertools import groupby
from typing import Any

from ..sound.catalogue import role_name
from ..words import language, spans
from .model import HostView, SeatView, t
from .names import big_name
from .paint import (
    AMBER,
    BG,
    BLUE,
    NOTE,
    ORANGE,
    RED,
    TEXT,
    Button,
    Painter,
    button,
    dimmed,
    wrap,
)
from .tableview import ballot_rule, by_votes, draw_table, more_totals, total_text

#: where the vote's totals stop: the voice's last lines (four rows at most) sit under it
VOTES_END = 264


def draw_host(p: Painter, surf: Any, view: HostView, selected: int | None = None,
              acting: int | None = None, confirm: tuple[str, ...] | None = None,
              hide_roles: bool = False, keys: tuple[str, ...] = ()) -> list[Button]:
    """The host's screen: the whole table, roles and choices, and the command buttons; with
    `hide_roles`, nothing says who holds what (a player beside the host can read a 7-inch
    panel): no role, no awake or asked mark on the seats, no night choice, no death before
    the room hears it, no note that tells a role or a choice (a seat's movement at night
    too: a role pressing just after his window was named by it)."""
    surf.fill(BG)
    pub = view.public
    lang = pub.lang
    seats = view.seats
    if hide_roles:
        # who is out as the room knows it: the night's losses are the host's from the last
        # window on, and a crossed-out seat before the morning told the night's kill
        known = {sv.seat: sv.alive for sv in pub.seats}
        seats = tuple(replace(sv, role="", awake=False, asked=False,
                              alive=known.get(sv.seat, sv.alive)) for sv in seats)
        view = replace(view, choices=(), idle=False,
                       notes=tuple(n for n in view.notes if n not in view.secrets))
    buttons = draw_table(p, surf, seats, pub, True, (0, 0, 480, 480),
                         acting if acting is not None else selected)
    x = 496
    y = 12
    w = 800 - x - 8
    # back to the setup screen from a game (a resumed game, or the next game's deal, had no
    # way there): asked twice, as a removal is, and the game is not recorded; a game over
    # is kept already, and goes at once
    buttons.append(button(p, surf, (x, 4, 130, 30), ("setup",) if pub.phase == "over"
                           else ("confirm", "setup"), t("to_setup", lang), 14))
    # roles are hidden unless the host holds this button (or the R key) down
    buttons.append(button(p, surf, (800 - 166, 4, 160, 30), ("roles",),
                           t("peek_roles" if hide_roles else "roles_shown", lang), 14))
    y += 26
    y = _host_status(p, surf, view, seats, (x, y, w))
    _host_notes(p, surf, view, (x, y, w))
    buttons += _host_commands(p, surf, view, x)
    buttons += _host_prompt(p, surf, view, seats, (x, w), selected, acting, confirm, keys)
    return buttons


def _host_status(p: Painter, surf: Any, view: HostView, seats: tuple[SeatView, ...],
                 at: tuple[int, int, int]) -> int:
    """The right column's top: who is called or missing, who is awake and what he chose,
    the nominees, the vote, what ends a speech, the season's rating. Returns where it ends."""
    x, y, w = at
    pub = view.public
    lang = pub.lang
    if view.calling:
        # (how many of its cards: a second Yakuza was pressed for where the deck has one)
        cards = f" ×{view.calling_cards}" if view.calling_cards > 1 else ""
        p.text(surf, f"{t('calling', lang)}: {role_name(view.calling, lang)}{cards}", (x, y), 18,
               BLUE, True, width=w)
        y += 26
    elif view.missing:
        p.text(surf, f"{t('missing', lang)}: " + ", ".join(role_name(r, lang)
                                                            for r in view.missing),
               (x, y), 16, ORANGE, True, width=w)
        y += 24
    if view.window:
        p.text(surf, f"{t('awake', lang)}: {t('window_' + view.window, lang)}", (x, y), 18,
               BLUE, True, width=w)
        y += 26
        said = ("meet_only" if view.meet_only else "idle_window" if view.idle
                else "by_rules" if view.by_rules else "")
        for row in wrap(p, t(said, lang), 14, w)[:2] if said else ():
            p.text(surf, row, (x, y), 14, BLUE, width=w)
            y += 18
        for d, target in view.choices:
            # (a hold on "nobody" read "-", as if nothing was chosen yet: a host saw the
            # Mafia's kill "stay -" after the Don had held)
            said = t("chose_nobody", lang) if target == "-" else target
            p.text(surf, f"{t('chose', lang)} ({t('window_' + d, lang)}): {said}", (x, y), 16,
                   width=w)
            y += 22
    if pub.nominees:
        p.text(surf, f"{t('nominees', lang)}: " + ", ".join(map(str, pub.nominees)), (x, y), 16,
               AMBER, True, width=w)
        y += 26
    rule = ballot_rule(pub)
    for row in wrap(p, rule, 14, w)[:2]:                 # what the host tells the table
        p.text(surf, row, (x, y), 14, AMBER, width=w)
        y += 18
    if view.cast is not None:
        living = sum(1 for s in view.seats if s.alive)
        p.text(surf, t("votes_in", lang).format(n=view.cast, of=living), (x, y), 14, TEXT,
               width=w)
        y += 18
    y += 4 if rule else 0
    if pub.totals or pub.no_votes:
        # "№2 — 11", three a line: never "2:11" beside the clock
        p.text(surf, t("votes", lang), (x, y), 16, AMBER, True, width=w)
        y += 22
        if pub.no_votes:
            for row in wrap(p, t("no_votes", lang), 16, w)[:2]:
                p.text(surf, row, (x, y), 16, AMBER, width=w)
                y += 20
        # most votes first (in seat order, nine of them left out the seat that left on 3
        # votes at 20 seats), three a row, as many rows as there is room for above the
        # voice's lines; the rest in words on the last row (a bare "+2" read as a total)
        ranked = by_votes(pub.totals)
        rows = max(2, (VOTES_END - y) // 20)
        shown = ranked if len(ranked) <= 3 * rows else ranked[:3 * (rows - 1)]
        for i in range(0, len(shown), 3):
            row = "   ".join(total_text(s, n, lang) for s, n in shown[i:i + 3])
            p.text(surf, row, (x, y), 16, AMBER, width=w)
            y += 20
        if len(shown) < len(ranked):
            p.text(surf, more_totals(ranked[len(shown):], lang), (x, y), 16, AMBER, width=w)
            y += 20
        y += 4
    speaker = next((sv.seat for sv in seats if sv.speaking), None)
    if speaker is not None and pub.step in ("speeches", "defence", "tie"):
        # what ends a speech, said where the host reads it (a speaker's own press ended it
        # with nothing on the screen to say so)
        key = ("speech_ends_nominate" if pub.step == "speeches" else "speech_ends"
               ) if view.nominating else "speech_ends_city"
        for said in wrap(p, t(key, lang).format(seat=speaker, skip=t("skip", lang)),
                         14, w)[:4]:
            p.text(surf, said, (x, y), 14, TEXT, width=w)
            y += 18
        y += 4
    if pub.phase == "over" and view.rating:
        # between games: the season's rating from the club's records
        p.text(surf, t("rating", lang), (x, y), 16, BLUE, True, width=w)
        y += 22
        # best first, each with his points ("Nino — 3"): "1. Дмитрий Петров 1" read as
        # seat 1 (he sat at 3); players level on points on one row ("Nino, Lasha and 5
        # more — 1"), never some of them left out by the alphabet
        for row in rating_rows(p, view.rating, w, lang)[:5]:
            p.text(surf, row, (x, y), 14, width=w)
            y += 18
    return y


def rating_rows(p: Painter, rating: tuple[tuple[str, float], ...], width: int,
                lang: str) -> list[str]:
    """The season's points table as rows no wider than `width` at 14 px, one a score: its
    players' names, as many as fit, "and N more" for the rest ("+13" read as points to a
    host's trial), then the score."""
    font = p.font(14)
    rows = []
    for score, level in groupby(rating, key=lambda named: named[1]):
        names = [name for name, _ in level]
        for shown in range(len(names), 0, -1):
            more = (" " + t("rating_more", lang).format(n=len(names) - shown)
                    if shown < len(names) else "")
            tail = f"{more} — {score:g}"
            row = f"{', '.join(names[:shown])}{tail}"
            if font.size(row)[0] <= width:
                rows.append(row)
                break
            if shown == 1:
                # one name too long for the row: as a club writes it on a full sheet
                # ("ალექსანდრე ჯ."), not the row shrunk to 8 px (a trial's 30 letters)
                room = max(width - font.size(tail)[0], 40)
                rows.append(big_name(p, names[0], 1, room)[0] + tail)
    return rows


def _host_notes(p: Painter, surf: Any, view: HostView, at: tuple[int, int, int]) -> None:
    """The table's latest notes, then what the voice just said."""
    x, y, w = at
    # what the voice just said, for a host without sound (or with a noisy room): the last
    # two lines, each over two rows when it must (shrunk, a long one was unreadable)
    # (a margin from the panel's edge: a long line touched it)
    # (in the language's own quotation marks: Georgian's „…“ stood beside “…”)
    opens, closes = language(view.public.lang).quotes
    rows = [r for line in view.captions[-2:]
            for r in wrap(p, opens + line + closes, 14, w - 8)[:2]]
    rows = rows[-4:]
    cy = 334 - 17 * len(rows)
    # the latest notes that fit above them (and above a card deal's role buttons)
    room = (142 if view.missing and not view.calling else cy - 4) - y
    lines: list[tuple[str, bool]] = []
    # the latest first, each over three rows, as many as there is room for (five at most
    # hid a yakuza night's first choice, the Mafia's, from a host peeking at the sixth)
    for note in reversed(view.notes):
        rows_of = [(r, note in view.alerts) for r in wrap(p, note, 14, w)[:3]]
        if 17 * (len(lines) + len(rows_of)) > room:
            break
        lines[:0] = rows_of
    for r, alert in lines:
        p.text(surf, r, (x, y), 14, ORANGE if alert else NOTE, width=w)
        y += 17
    for r in rows:
        p.text(surf, r, (x, cy), 14, TEXT, width=w - 8)
        cy += 17


def _host_commands(p: Painter, surf: Any, view: HostView, x: int) -> list[Button]:
    """The bottom rows' touch buttons."""
    pub = view.public
    lang = pub.lang
    buttons: list[Button] = []
    # commands: the bottom rows are touch buttons, two by two (four in a row left 64 px:
    # "Пропустить", "გამოტოვება" were 10 px); after a game only what still means
    # something (a next game, asked twice: it deals at once; or new players)
    row: list[tuple[str, tuple[str, ...]]] = [
        # seats that never looked at their role: Start asks once more, naming them
        ("start", ("confirm", "begin") if view.unseen else ("start",)),
        ("resume" if pub.paused else "pause", ("resume",) if pub.paused else ("pause",)),
        ("skip", ("skip",)), ("undo", ("undo",))]
    if view.unseen and view.pending == "start":
        # the deal is over and seats never looked: their turn again (a player who missed
        # his 5 s could never see his role), or start past them
        row[1] = ("look_again", ("again",))
    if pub.phase == "over":
        # the game is over and kept: the next one on one tap (it asked again, on a button
        # that appeared elsewhere, and the same button tapped again did nothing)
        row = [("next_game", ("start",)), ("new_players", ("setup",))]
    elif view.pending == "call":
        row = [("call_roles", ("call",))]          # the cards are being dealt: nothing runs
    each = 300 // min(2, len(row))
    for i, (key, cmd) in enumerate(row):
        top = 384 if len(row) <= 2 else 342 + 40 * (i // 2)
        rect = (x + (i % 2) * each, top, each - 5, 36)
        if cmd == ("start",) and pub.phase.startswith(("night", "day")):
            # the game runs: Start means nothing now (a trial host tapped it at night and
            # saw nothing happen); it keeps its place, dimmed, so no button moves
            dimmed(p, surf, rect, t(key, lang))
            continue
        buttons.append(button(p, surf, rect, cmd, t(key, lang)))
    return buttons


def _host_prompt(p: Painter, surf: Any, view: HostView, seats: tuple[SeatView, ...],
                 at: tuple[int, int], selected: int | None, acting: int | None,
                 confirm: tuple[str, ...] | None, keys: tuple[str, ...]) -> list[Button]:
    """The bottom's prompt: acting for a pad, a confirmation, a card deal's roles, a command
    half typed, or a tapped seat's commands."""
    x, w = at
    pub = view.public
    lang = pub.lang
    buttons: list[Button] = []
    speaker = next((sv.seat for sv in seats if sv.speaking), None)
    if acting is not None:
        # acting for a broken pad: the next seat tapped is his choice, or nothing (for the
        # speaker: Nothing ends his speech, and the screen says so)
        # (a city speaker nominates nobody: "whom he nominates" sent a host looking for a
        # nomination that the format does not have)
        ask = (t("act_speaker", lang) if view.nominating else t("act_speaker_ends", lang)
               ).format(nothing=t("nothing", lang)) if acting == speaker \
            else t("act_target", lang)
        for i, r in enumerate(wrap(p, f"№{acting}: {ask}", 14, 195, True)[:3]):
            p.text(surf, r, (x, 422 + 17 * i), 14, AMBER, True, width=195)
        buttons.append(button(p, surf, (x + 200, 428, 100, 40), ("act", str(acting), "-"),
                               t("nothing", lang)))
    elif confirm is not None:
        # a removal, or a new deal, is not undone by a slip of the finger: it asks once more
        sent = confirm
        if confirm[0] == "start":
            ask, label = t("confirm_next", lang), t("next_game", lang)
        elif confirm[0] == "setup":
            ask, label, sent = t("confirm_setup", lang), t("to_setup", lang), ("setup",)
        elif confirm[0] == "begin":
            ask = t("confirm_unseen", lang).format(seats=spans(list(view.unseen)))
            label, sent = t("start", lang), ("start",)
        else:
            ask, label = f"№{confirm[1]}: {t('confirm_remove', lang)}", t("disqualify", lang)
        for i, r in enumerate(wrap(p, ask, 14, 195, True)[:3]):
            p.text(surf, r, (x, 422 + 17 * i), 14, RED, True, width=195)
        buttons.append(button(p, surf, (x + 200, 428, 100, 40), sent, label))
    elif view.missing and not view.calling:
        # a card deal with roles nobody pressed for: tap a seat, then the role on his card;
        # with no seat tapped, a role's button calls it again. Every role keeps its place
        # (assigned ones stay, dimmed), so the same spot never means another role
        head = f"№{selected}" if selected is not None else t("call_again", lang)
        p.text(surf, head, (x, 144), 14, AMBER, True, width=w)
        for i, role in enumerate(view.deal_roles):
            rect = (x + (i % 3) * 99, 164 + (i // 3) * 34, 94, 30)
            if role not in view.missing:
                dimmed(p, surf, rect, role_name(role, lang))
                continue
            cmd: tuple[str, ...] = (("assign", str(selected), role) if selected is not None
                                    else ("call", role))
            buttons.append(button(p, surf, rect, cmd, role_name(role, lang)))
    elif keys:
        # a command half typed on the keyboard (F, D or A, then Shift and seat keys): what
        # it is so far, and what it waits for
        so_far = t(keys[0], lang) + "".join(f" №{k}" for k in keys[1:])
        # (a big table's seats past 12 have their simulator's F keys: said there, as far
        # as this table goes: "13-30" at 20 seats named seats it has not)
        then = t("keys_confirm" if keys[0] == "disqualify" and len(keys) == 2 else
                 "keys_then_big" if len(seats) > 12 else "keys_then", lang).format(
                     seats=spans(list(range(13, len(seats) + 1))), keys=_big_keys(len(seats)))
        # (under the buttons, which end at 420: three rows fit to the panel's foot)
        for i, r in enumerate(wrap(p, f"{so_far}: {then}", 14, w, True)[:3]):
            p.text(surf, r, (x, 424 + 18 * i), 14, AMBER, True, width=w)
    elif selected is not None and pub.phase != "over":     # a finished game has no fouls
        sel = str(selected)
        seat_row: list[tuple[str, tuple[str, ...]]] = [
            ("foul", ("foul", sel)), ("disqualify", ("confirm", "disqualify", sel)),
            ("act", ("act", sel))]
        # the buttons after the seat's number, however wide ("№16" was under Foul at 20)
        head = p.text(surf, f"№{selected}", (x, 436), 16, TEXT, True).width + 6
        each = (w + 4 - head) // len(seat_row)
        for i, (key, cmd) in enumerate(seat_row):
            buttons.append(button(p, surf, (x + head + i * each, 428, each - 3, 40), cmd,
                                  t(key, lang)))
    return buttons


def _big_keys(n: int) -> str:
    """The simulator's keys of a big table's seats 13 to `n`: F1-F12 are 13-24, Shift+F1-F6
    25-30."""
    def span(shift: str, last: int) -> str:
        return f"{shift}F1" if last == 1 else f"{shift}F1-F{last}"
    return span("", min(n, 24) - 12) + (f", {span('Shift+', n - 24)}" if n > 24 else "")
