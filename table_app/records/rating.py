"""Player statistics and a rating, recomputed from the records.

The rating is openskill's Plackett-Luce model (Weng-Lin), made for games of teams of any
size: each game's sides are its teams (a lone Maniac is a team of one), the winning side
ranks first and every other side shares second place. A player unnamed at the table (shown
as "seat N") is left out. Ratings are recomputed from the games in the order they ended, for
one club and one season (a year, or any span of dates) when asked: nothing is stored, so a
renamed or merged player, or a game attributed later, counts at once.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from .game import GameRecord
from .interval import wilson


@dataclass
class PlayerStats:
    """One player's record over some games."""

    name: str
    games: int = 0
    wins: int = 0
    survived: int = 0
    fouls: int = 0
    by_side: dict[str, list[int]] = field(default_factory=dict)   # side -> [games, wins]
    by_role: dict[str, list[int]] = field(default_factory=dict)   # role -> [games, wins]


def player_stats(games: list[GameRecord]) -> list[PlayerStats]:
    out: dict[str, PlayerStats] = {}
    for g in games:
        for s in g.seats:
            if s.name.startswith("seat "):
                continue
            p = out.setdefault(s.name, PlayerStats(s.name))
            p.games += 1
            p.wins += s.won
            p.survived += s.survived
            p.fouls += s.fouls
            for key, table in ((s.side, p.by_side), (s.role, p.by_role)):
                cell = table.setdefault(key, [0, 0])
                cell[0] += 1
                cell[1] += s.won
    return sorted(out.values(), key=lambda p: (-p.games, p.name))


@dataclass
class Standing:
    """A player's line in the club's points table: a point for each game his side won."""

    name: str
    games: int
    wins: int

    @property
    def points(self) -> int:
        return self.wins

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0


def standings(games: list[GameRecord]) -> list[Standing]:
    """The club's points table, as sports-mafia clubs keep one, so that every figure can be
    worked out by hand from the protocol sheets: a point for each game the player's side won
    (whatever became of him in it), none for a loss; ranked by points, then by the share of
    games won, then by name. Equal records stand equal; two wins of two stand above one of
    two. (The openskill rating beside it weighs whom a side beat, but a lone winner's team
    of one moved it far more than a city of eight, and its sigma moves slowly at big
    tables: it is shown, not ranked by.)"""
    table = [Standing(p.name, p.games, p.wins) for p in player_stats(games)]
    return sorted(table, key=lambda s: (-s.points, -s.share, s.name))


def side_rates(games: list[GameRecord]) -> dict[tuple[str, int], dict[str, tuple[float, ...]]]:
    """Per format and seat count: each side's win rate with its 95 % Wilson interval."""
    counts: dict[tuple[str, int], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    totals: dict[tuple[str, int], int] = defaultdict(int)
    for g in games:
        key = (g.format, g.players)
        totals[key] += 1
        if g.winner:
            counts[key][g.winner] += 1
    return {key: {side: wilson(k, totals[key]) for side, k in sorted(counts[key].items())}
            for key in sorted(totals)}


@dataclass
class Rated:
    name: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """The shown rating: mu - 3 sigma (grows as the model grows sure of a player)."""
        return self.mu - 3 * self.sigma


def rating(games: list[GameRecord]) -> list[Rated]:
    """Everyone's rating after `games`, best first."""
    from openskill.models import PlackettLuce, PlackettLuceRating

    model = PlackettLuce()
    now: dict[str, PlackettLuceRating] = {}
    played: dict[str, int] = defaultdict(int)
    for g in sorted(games, key=lambda g: (g.ended, g.id)):
        sides: dict[str, list[str]] = defaultdict(list)
        won: dict[str, bool] = {}
        for s in g.seats:
            if s.name.startswith("seat "):
                continue
            team = s.side if s.side != "maniac" else s.role
            sides[team].append(s.name)
            won[team] = won.get(team, False) or s.won
        if len(sides) < 2:
            continue                         # nothing to compare
        names = list(sides)
        teams = [[now.setdefault(n, model.rating(name=n)) for n in sides[t]] for t in names]
        ranks: list[float] = [1 if won[t] else 2 for t in names]
        new = model.rate(teams, ranks=ranks)
        for name, rated in zip(names, new, strict=True):
            for n, r in zip(sides[name], rated, strict=True):
                now[n] = r
                played[n] += 1
    out = [Rated(n, r.mu, r.sigma, played[n]) for n, r in now.items()]
    return sorted(out, key=lambda r: (-r.ordinal, r.name))


def season(games: list[GameRecord], which: str | None) -> list[GameRecord]:
    """The games of a season: a year ("2026"), a month ("2026-11"), or a span
    ("2026-09-01..2026-12-31"); None: all."""
    if not which:
        return games
    if ".." in which:
        lo, hi = which.split("..", 1)
        return [g for g in games if lo <= g.ended[:len(lo)] and g.ended[:len(hi)] <= hi]
    return [g for g in games if g.ended.startswith(which)]
