"""The acts' registry (rules/acts.py): every act a role names is in it, every decision lands
in its act's stage of the dawn, and whom a decision may name is one rule that legality, the
technical defaults and the bots share."""

from __future__ import annotations

import inspect
import random

import pytest

from table_app.rules import actions as A
from table_app.rules import acts as acts_module
from table_app.rules import bots, deal_from_seed, find_format
from table_app.rules import effects as E
from table_app.rules.acts import ACT, ActRule, Stage
from table_app.rules.engine import Game
from table_app.rules.roles import DECISION, ROLE_DEFS
from table_app.rules.state import Phase, Step

FORMATS = ("yakuza", "classic", "city")


def test_every_act_a_role_names_is_the_registrys_entry() -> None:
    for role in ROLE_DEFS:
        for d in role.decisions:
            for act in (d.act,) + tuple(a for _, a in d.modes):
                assert ACT.get(act.name) is act, (role.id, d.id, act.name)


def test_every_act_defined_is_registered_once() -> None:
    kinds = {type(a) for a in ACT.values()}
    defined = {c for _, c in inspect.getmembers(acts_module, inspect.isclass)
               if issubclass(c, ActRule) and c is not ActRule}
    assert defined <= kinds, defined - kinds
    assert len({a.name for a in ACT.values()}) == len(ACT)


@pytest.mark.parametrize("fmt_id", FORMATS)
def test_every_decision_lands_in_its_acts_stage(fmt_id: str) -> None:
    """A decision whose act lands somewhere is in that stage of every night's plan (the old
    engine kept a hand-made list per kind: a new act missing from it was silently ignored)."""
    fmt = find_format(fmt_id)
    for n in (fmt.min_players, fmt.max_players):
        game = Game(fmt, n)
        game.apply(deal_from_seed(fmt, n, 7))
        for night in (1, 2, 3):
            plan = game.rules.plan(night, frozenset(r for r in game.roles if r))
            for d in plan.order:
                dd = DECISION[d]
                for act in (dd.act,) + tuple(a for _, a in dd.modes):
                    assert d in plan.stages[act.stage], (fmt_id, n, night, d, act.name)
                stages = {st for st in Stage if d in plan.stages[st]}
                assert stages == {a.stage for a in (dd.act,) + tuple(a for _, a in dd.modes)}


@pytest.mark.parametrize("fmt_id", FORMATS)
def test_legality_defaults_and_bots_share_one_rule_of_whom_a_decision_may_name(
        fmt_id: str) -> None:
    """At every open decision of many bot games: the seats `legal_targets` offers (what the
    pads and the bots choose from) are exactly those a Decide of them would accept, and a
    technical default picks one of them. Saves spent, self-saves used and kills counted make
    the rule change as the games go on."""
    fmt = find_format(fmt_id)
    seen = {"barred": 0, "default": 0, "checked": 0, "saves spent": 0}

    def watch(game: Game, action: A.Action, fx: list[E.Effect]) -> None:
        if game.phase is not Phase.NIGHT or game.step is not Step.WINDOWS:
            return
        for d in game.open_decisions():
            actor = game.actor(d)
            modes = game.modes(d) if DECISION[d].modes else [""]
            for mode in modes:
                legal = game.legal_targets(d, mode)
                if actor is None:
                    assert legal == []
                    continue
                accepted = [s for s in game.live if game._target_error(d, actor, s, mode) is None]
                if legal or not accepted:
                    assert legal == accepted, (d, mode, legal, accepted)
                else:      # it may name nobody at all now (no kills left, not yet this night)
                    assert game._may_not(d, mode, game.rules.target_rule[d][mode])
                seen["checked"] += 1
                seen["barred"] += len(game.live) - len(legal)
                r = game.rules.target_rule[d][mode]
                seen["saves spent"] += sum(
                    1 for why in game.barred(d, actor, r).values() if why != "self")
                if not mode:
                    first = game.first_target(d, actor, mode)
                    assert first == (legal[0] if legal else None), (d, first, legal)
                    seen["default"] += first is not None

    for seed in range(40):
        n = fmt.min_players + seed % (fmt.max_players - fmt.min_players + 1)
        bots.play(fmt, n, random.Random(seed), "informed" if seed % 2 else "random",
                  observe=watch)
    assert seen["checked"] > 300 and seen["barred"] > 100 and seen["default"] > 100, seen
    saves = any(ACT["save"] in (DECISION[d].act,) for d in fmt.window_of)
    assert (seen["saves spent"] > 20) == saves, seen
