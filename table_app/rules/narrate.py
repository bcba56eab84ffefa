"""Readable English lines for effects: the host's narration of a replayed game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import effects as E

if TYPE_CHECKING:
    from .script import Replay

BY = {
    "mafia": "killed by the Mafia", "yakuza": "shot by the Yakuza",
    "maniac": "killed by the maniac", "killer": "killed by the Killer",
    "commissar": "shot by the Commissar", "vote": "voted out",
    "removeall": "removed with all the tied nominees", "disqualified": "disqualified",
    "sorcerer": "taken along by the Sorcerer",
}

WINNER = {
    "city": "The city wins.", "mafia": "The Mafia wins.", "yakuza": "The Yakuza wins.",
    "maniac": "The maniac wins.", "killer": "The Killer wins.",
}


def seats(seq: tuple[int, ...] | list[int]) -> str:
    return ", ".join(str(s) for s in seq) if seq else "nobody"


def describe(fx: E.Effect) -> str | None:
    """One narration line for an effect, or None for effects a replay does not narrate."""
    if isinstance(fx, E.PhaseBegins):
        if fx.phase == "night":
            return f"Night {fx.number}. The city falls asleep."
        return f"Day {fx.number}. The city wakes up."
    if isinstance(fx, E.Wake):
        return f"  The {fx.window} wakes ({fx.seconds} s)."
    if isinstance(fx, E.Decided):
        what = "nothing" if fx.target is None else f"seat {fx.target}"
        verb = f"{fx.mode}s" if fx.mode else "chooses"
        how = " (technical default)" if fx.default else ""
        return f"    {fx.decision} {verb} {what}{how}."
    if isinstance(fx, E.CheckResult):
        return f"    The {fx.by}'s check of seat {fx.target}: {fx.result}."
    if isinstance(fx, E.Witness):
        return f"    The hobo at seat {fx.target} saw: {seats(fx.killers)}."
    if isinstance(fx, E.RoleChanged):
        return f"  Seat {fx.seat} is now the {fx.role}."
    if isinstance(fx, E.Morning):
        fouls = f" Critical fouls so far: {fx.critical_fouls}." if fx.critical_fouls else ""
        return f"  In the night, left the game: {seats(fx.left)}.{fouls}"
    if isinstance(fx, E.Eliminated):
        role = f" ({fx.role})" if fx.role else ""
        return f"  Seat {fx.seat}{role} leaves the game: {BY.get(fx.by, fx.by)}."
    if isinstance(fx, E.Nominated):
        return f"  Seat {fx.by}: I have accepted the nomination of seat {fx.target}."
    if isinstance(fx, E.NomineesAnnounced):
        return f"  Nominated: {seats(fx.nominees)}."
    if isinstance(fx, E.VoteOpens):
        what = {"vote": "The vote", "revote": "The repeat vote",
                "removeall": "Shall all the tied nominees leave?"}[fx.kind]
        if fx.kind == "removeall":
            return f"  {what} ({seats(fx.candidates)})"
        return f"  {what}: {seats(fx.candidates)}."
    if isinstance(fx, E.VoteTotals):
        if fx.kind == "removeall":
            return f"    Yes: {fx.totals[0][1]}."
        return "    Votes: " + ", ".join(f"seat {s} {n}" for s, n in fx.totals) + "."
    if isinstance(fx, E.Speech):
        return None
    if isinstance(fx, E.TakeAwaited):
        return f"  The Sorcerer at seat {fx.seat} may take one of: {seats(fx.voters)}."
    if isinstance(fx, E.FoulGiven):
        return f"  Foul for seat {fx.seat} ({fx.count})."
    if isinstance(fx, E.GameOver):
        return WINNER.get(fx.winner, f"{fx.winner} wins.")
    return None


def narrate(replay: Replay) -> list[str]:
    """The host's narration of a replayed game, each night's choices under their window."""
    game = replay.game
    lines = [f"{game.fmt.title}, {game.n} players."]
    roles = game.roles
    lines.append("Deal: " + ", ".join(f"{s}={roles[s] or '?'}" for s in range(1, game.n + 1)))
    flat = [fx for _, _, effects in replay.steps for fx in effects]
    night: list[E.Effect] | None = None
    for fx in flat + [None]:
        if night is not None and (fx is None or isinstance(fx, E.PhaseBegins)):
            lines += _night_lines(night)
            night = None
        if fx is None:
            break
        if isinstance(fx, E.PhaseBegins) and fx.phase == "night":
            night = []
        if night is not None:
            night.append(fx)
        elif (text := describe(fx)) is not None:
            lines.append(text)
    return lines


def _night_lines(night: list[E.Effect]) -> list[str]:
    """A night in window order: each window, then what it chose, then the dawn."""
    chosen = [fx for fx in night if isinstance(fx, (E.Decided, E.CheckResult))]
    out = [describe(night[0]) or ""]
    rest: list[E.Effect] = []
    for fx in night[1:]:
        if isinstance(fx, E.Wake):
            out.append(describe(fx) or "")
            for c in chosen:
                key = c.decision if isinstance(c, E.Decided) else c.by
                if key in fx.decisions:
                    out.append(describe(c) or "")
        elif not isinstance(fx, (E.Decided, E.CheckResult, E.Sleep)):
            rest.append(fx)
    return out + [t for fx in rest if (t := describe(fx))]
