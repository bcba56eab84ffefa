"""Sending a table's games to the league's records (`table-app records sync`, and the
recorder's retries): each game once, the ones the league refuses set aside with why."""

from __future__ import annotations

from dataclasses import dataclass, field

from .game import GameRefused
from .store import Records, too_long


@dataclass
class Synced:
    """What a sync did: games sent, games the league had already, and the games it could
    not send, each with why (they wait; the rest went)."""

    sent: int = 0
    same: int = 0
    held: list[tuple[str, str]] = field(default_factory=list)


def send(local: Records, remote: Records) -> Synced:
    """Send the games the league has not got yet. A game is marked sent only once the
    league holds it, so an outage loses nothing and a retry doubles nothing (the id is the
    game's, on both sides). A game the league refuses (a value its schema does not take) is
    set aside with the reason and the others go on: one such game stopped every sync, for
    good. An unreachable league is a RecordsError, as before."""
    out = Synced()
    done = []
    for rec in local.unsynced():
        why = too_long(rec)
        if why is None:
            try:
                if remote.record(rec, synced=True):
                    out.sent += 1
                else:
                    out.same += 1
                done.append(rec.id)
                continue
            except GameRefused as e:
                why = str(e)
        out.held.append((rec.id, why))
    local.mark_synced(done)
    return out


def sync(local: Records, remote: Records) -> tuple[int, int]:
    """`send`, as (sent, already there)."""
    got = send(local, remote)
    return got.sent, got.same
