"""Role ids, decision ids and the option registry: everything the engine knows how to run.

A format (data) may only name what is here; that is how an inconsistent house variant is
caught before a game starts.
"""

from __future__ import annotations

from typing import Final

ROLES: Final = (
    "civilian", "detective", "doctor", "don", "mafioso", "shogun", "yakuza", "maniac",
    "lawyer", "commissar", "sergeant", "lover", "hobo", "sorcerer", "werewolf", "killer",
)

#: Roles a deal may hand out at most once (a werewolf may become a second sergeant later).
UNIQUE_ROLES: Final = frozenset(
    {"detective", "doctor", "don", "shogun", "yakuza", "maniac", "lawyer", "commissar",
     "lover", "hobo", "sorcerer", "killer"}
)

#: Night decisions, as a game script names them, and the role whose seat makes each.
#: `mafia` is made by the acting Don (the Don, or the first living Mafia member in table order).
DECISIONS: Final[dict[str, str]] = {
    "mafia": "don",
    "don": "don",
    "shogun": "shogun",
    "yakuza": "yakuza",
    "detective": "detective",
    "doctor": "doctor",
    "maniac": "maniac",
    "commissar": "commissar",
    "lawyer": "lawyer",
    "lover": "lover",
    "hobo": "hobo",
    "killer": "killer",
}

#: Decisions that remove a player when they land, with the `out[].by` they produce.
KILLS: Final = ("mafia", "yakuza", "maniac", "commissar", "killer")

#: Sides that can win, as `winner` names them.
TEAMS: Final = ("city", "mafia", "yakuza", "maniac", "killer")

OptionValue = bool | int | str | list[str]

#: Every option a format may set: its type and, for strings, the values allowed.
OPTION_TYPES: Final[dict[str, tuple[type, tuple[str, ...]]]] = {
    **{f"{d}_from_night": (int, ()) for d in DECISIONS},
    "commissar_shoot_from_night": (int, ()),
    "maniac_kills": (int, ()),
    "doctor_once_per_seat": (bool, ()),
    "doctor_self_once": (bool, ()),
    "doctor_auto_save": (bool, ()),
    "mafia_default_kill": (bool, ()),
    "yakuza_default_kill": (bool, ()),
    "shogun_checks_red": (bool, ()),
    "killer_checks_black": (bool, ()),
    "lover_may_block_commissar": (bool, ()),
    "checks_at_dawn": (bool, ()),
    "passes": (list, tuple(DECISIONS)),
    "vote": (str, ("nominees", "plurality")),
    "abstain_to_last": (bool, ()),
    "tie": (str, ("revote", "nobody")),
    "first_speaker": (str, ("first", "rotate")),
    "fouls_to_disqualify": (int, ()),
    "reveal_roles": (bool, ()),
}

#: What an option is when a format does not set it.
OPTION_DEFAULTS: Final[dict[str, OptionValue]] = {
    **{f"{d}_from_night": 1 for d in DECISIONS},
    "commissar_shoot_from_night": 2,
    "maniac_kills": 2,
    "doctor_once_per_seat": True,
    "doctor_self_once": True,
    "doctor_auto_save": True,
    "mafia_default_kill": True,
    "yakuza_default_kill": True,
    "shogun_checks_red": True,
    "killer_checks_black": False,
    "lover_may_block_commissar": False,
    "checks_at_dawn": False,
    "passes": [],
    "vote": "nominees",
    "abstain_to_last": True,
    "tie": "revote",
    "first_speaker": "first",
    "fouls_to_disqualify": 0,
    "reveal_roles": False,
}
