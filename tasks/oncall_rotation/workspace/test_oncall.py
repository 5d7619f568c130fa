from datetime import date

import pytest

from overrides import Overrides
from paging import NobodyAvailable, escalation_chain, page, responder
from rotation import Rotation
from schedule import calendar, upcoming


def sre():
    return Rotation("sre", ["amira", "bo", "chen", "dana"])


def test_upcoming_weeks():
    assert upcoming(sre(), 6) == ["amira", "bo", "chen", "dana", "amira", "bo"]


def test_calendar_lines():
    assert calendar(sre(), date(2024, 3, 4), 2) == ["2024-03-04 amira", "2024-03-11 bo"]


def test_page_goes_to_this_weeks_on_call_after_calendar_is_shown():
    rota = sre()
    calendar(rota, date(2024, 3, 4), 3)
    assert page(rota, "db latency") == "[sre] paging amira: db latency"


def test_weekly_handoff_after_planning():
    rota = sre()
    upcoming(rota, 2)
    assert rota.advance() == "bo"
    assert upcoming(rota, 4) == ["bo", "chen", "dana", "amira"]


def test_leave_escalates_to_next():
    rota = sre()
    rota.on_leave.add("amira")
    assert responder(rota) == "bo"
    rota.on_leave.update({"bo", "chen", "dana"})
    with pytest.raises(NobodyAvailable):
        responder(rota)


def test_duplicate_member_rejected():
    with pytest.raises(ValueError):
        sre().add("chen")


def test_override_covers_a_week_in_calendar_and_paging():
    rota = sre()
    cover = Overrides()
    cover.add(date(2024, 3, 4), "amira", "chen")
    assert calendar(rota, date(2024, 3, 4), 1, cover) == ["2024-03-04 chen (covering for amira)"]
    assert escalation_chain(rota, date(2024, 3, 6), cover) == ["chen", "amira", "bo", "dana"]
    assert page(rota, "disk full", date(2024, 3, 12), cover) == "[sre] paging amira: disk full"
