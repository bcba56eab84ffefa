"""The game script the table writes as it plays: the same format `table-app replay` reads."""

from __future__ import annotations

from collections.abc import Sequence


class ScriptWriter:
    """Lines of a game script, added as the table applies each choice."""

    def __init__(self, fmt_id: str, players: int, options: Sequence[str] = ()) -> None:
        self.lines = [f"format {fmt_id}", f"players {players}", *options]

    def deal(self, roles: Sequence[str]) -> None:
        self.lines.append("deal " + " ".join(f"{i}={r}" for i, r in enumerate(roles, 1)))

    def phase(self, word: str) -> None:
        self.lines.append(word)

    def decision(self, d: str, target: int | None, mode: str) -> None:
        what = "-" if target is None else str(target)
        self.lines.append(f"{d} {mode} {what}" if mode else f"{d} {what}")

    def ballots(self, kind: str, ballots: Sequence[tuple[int, int]]) -> None:
        by_target: dict[int, list[int]] = {}
        for seat, target in ballots:
            by_target.setdefault(target, []).append(seat)
        for target, seats in by_target.items():
            self.lines.append(f"{kind} {target}: " + " ".join(map(str, seats)))

    def removeall(self, yes: Sequence[int]) -> None:
        self.lines.append("removeall: " + " ".join(map(str, yes)))

    def line(self, text: str) -> None:
        self.lines.append(text)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"
