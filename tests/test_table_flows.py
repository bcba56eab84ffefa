"""The table's shape: small flows (the deal, the night, the day, the host's commands) that own
their state and share one context, typed stages, questions and timers, and tables of handlers
that cover every kind."""

from __future__ import annotations

import inspect
from pathlib import Path

from test_layout import import_graph

from table_app.table import core
from table_app.table.core import Table
from table_app.table.kinds import Ask, TableStage, Timed
from table_app.table.timers import Timer
from table_app.table.virtual import run_virtual, virtual_table

FLOWS = ("deal", "night", "day", "commands")


def test_the_flows_never_import_each_other_nor_the_table() -> None:
    graph = import_graph()
    mods = {f"table_app.table.{m}" for m in FLOWS + ("core",)}
    for flow in FLOWS:
        name = f"table_app.table.{flow}"
        assert name in graph, name
        assert not (graph[name] & mods), (name, graph[name] & mods)
    assert {f"table_app.table.{f}" for f in FLOWS} <= graph["table_app.table.core"]


def test_the_table_is_no_mixin() -> None:
    assert Table.__bases__ == (object,)
    for _, cls in inspect.getmembers(core, inspect.isclass):
        if cls.__module__.startswith("table_app.table"):
            assert "self: Table" not in inspect.getsource(cls), cls


def test_every_timer_every_question_and_every_pad_event_has_its_handler(
        tmp_path: Path) -> None:
    """The table's dispatch is `match` statements a reader (and mypy, through assert_never)
    can follow: every timer, every question and every pad event reaches one handler."""
    app, bots, clock, _ = virtual_table(tmp_path / "j", fmt_id="city", players=12, seed=3)
    table = app.table
    assert table is not None
    called: list[str] = []

    def record(obj: object, *names: str) -> None:
        for name in names:
            setattr(obj, name, lambda *a, name=name, **k: called.append(name))

    record(table.night, "close_window", "morning", "choice")
    record(table.day, "speech_over", "close_vote", "take_over", "evening", "speech_choice",
           "ballot", "removeall", "take")
    record(table.dealing, "register_over", "view_over", "pressed", "released")
    record(table, "_pad_fault", "_pad_recovered", "_out_of_turn")
    for what in Timed:
        called.clear()
        table._timer_over(what)
        assert len(called) == 1, (what, called)
    from table_app.table.questions import Question
    for ask in Ask:
        called.clear()
        table.ctx.questions.now[5] = Question(ask, (1, 2))
        table.confirmed(5, 1)
        assert len(called) == 1, (ask, called)
    from table_app.pads import Confirmed, OutOfTurn, Pressed, Released
    from table_app.pads.events import PadFault, PadRecovered
    table.ctx.questions.now[5] = Question(Ask.BALLOT, (1, 2))
    for ev in (PadFault(5, "x", 1.0), PadRecovered(5, "x", 1.0), OutOfTurn(5, 1.0),
               Pressed(5, 1.0), Released(5, 1.0, 0.1), Confirmed(5, 1, 1.0)):
        called.clear()
        table._pad_events([ev])
        assert len(called) == 1, (ev, called)


def test_a_game_runs_on_typed_stages_questions_and_timers(tmp_path: Path) -> None:
    """Every stage the table passes, every question a pad is asked and every timer that runs
    in a whole game (a card deal's too) is one of the typed kinds; between them they meet
    every kind a city game has."""
    stages: set[object] = set()
    asks: set[object] = set()
    timed: set[object] = set()
    for deal, seed in (("app", 5), ("cards", 6)):
        app, bots, clock, _ = virtual_table(tmp_path / deal, fmt_id="city", players=12,
                                            deal=deal, seed=seed)

        def watch(t: Table) -> None:
            stages.add(t.stage)
            asks.update(q.ask for q in t.questions.now.values())
            if t.timer is not None:
                assert isinstance(t.timer, Timer)
                timed.add(t.timer.what)
        app.observers.append(watch)
        table = run_virtual(app, bots, clock)
        assert table.stage is TableStage.OVER
    assert all(type(s) is TableStage for s in stages)
    assert all(type(a) is Ask for a in asks)
    assert all(type(w) is Timed for w in timed)
    assert stages == set(TableStage), stages
    assert {Ask.DECISION, Ask.SPEECH, Ask.BALLOT} <= asks, asks
    assert {Timed.WINDOW, Timed.SPEECH, Timed.VOTE, Timed.DAWN, Timed.DUSK, Timed.VIEW,
            Timed.REGISTER} <= timed, timed
