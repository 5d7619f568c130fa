import pytest

from attendees import RegistrationError, parse_registrations
from layout import fit
from printing import PrintJob
from templates import DEFAULT_TEMPLATE, TemplateError, line_fields, template_for

CSV = """
ref,name,role,company,pronouns,talk,vip,ribbons
R1,Ada Lovelace,speaker,Analytical Engines,she/her,Notes on the engine,yes,volunteer
R2,Bob Ng,attendee,,,,,
R3,Cara Diaz,attendee,Acme,they/them,,,first timer
R4,Dan O,attendee,,,,no,
"""


def test_parse_and_validate():
    people = parse_registrations(CSV)
    assert [p.ref for p in people] == ["R1", "R2", "R3", "R4"]
    from attendees import by_role

    assert by_role(people) == {"speaker": ["R1"], "attendee": ["R2", "R3", "R4"]}
    assert people[0].vip and people[2].ribbons == ["FIRST TIMER"]
    with pytest.raises(RegistrationError):
        parse_registrations("ref,name,role\nX,Y,guest")
    with pytest.raises(TemplateError):
        template_for("press")


def test_fit():
    assert fit("A very long name that will not fit", 18) == "A very long name th…"
    from templates import register_template, roles

    with pytest.raises(TemplateError):
        register_template("press", {"lines": []})
    assert roles() == ["attendee", "speaker"]


def test_first_badge():
    job = PrintJob()
    badge = job.add(parse_registrations(CSV)[2])
    assert badge["lines"] == [("bold", 18, "Cara Diaz"), ("regular", 12, "Acme"), ("regular", 9, "they/them")]


def test_each_badge_gets_only_its_own_lines():
    job = PrintJob()
    job.add_all(parse_registrations(CSV))
    assert [len(b["lines"]) for b in job.badges] == [4, 1, 3, 1]
    assert job.preview("R4") == ["[#ffffff] -", "bold:18 Dan O"]


def test_ribbons_and_colours_do_not_leak():
    job = PrintJob()
    job.add_all(parse_registrations(CSV))
    assert job.badges[0]["ribbons"] == ["SPEAKER", "VOLUNTEER"]
    assert job.badges[2]["ribbons"] == ["FIRST TIMER"]
    assert job.badges[3]["ribbons"] == []
    assert job.badges[3]["background"] == "#ffffff"


def test_templates_are_unchanged_after_a_print_run():
    PrintJob().add_all(parse_registrations(CSV))
    assert line_fields(DEFAULT_TEMPLATE) == ["name"]
    assert template_for("speaker")["ribbons"] == ["SPEAKER"]
    assert template_for("speaker")["colours"]["background"] == "#fff4d6"


def test_sheet_count():
    job = PrintJob()
    for _ in range(3):
        job.add_all(parse_registrations(CSV))
    assert job.sheet_count() == 2


def test_check_in_desk_prints_clean_badges():
    from datetime import datetime

    from checkin import CheckInDesk

    desk = CheckInDesk(parse_registrations(CSV))
    now = datetime(2026, 9, 1, 8, 30)
    first = desk.check_in("R1", now)
    assert first["lanyard"] == "orange"
    assert desk.check_in("R1", now) is None
    second = desk.check_in("R2", now)
    assert second["lines"] == [("bold", 18, "Bob Ng")]
    assert second["background"] == "#ffffff"
    assert desk.scan(second["code"]) == "welcome Bob Ng"
    assert desk.stats() == {"checked_in": 2, "of": 4, "roles": {"attendee": 1, "speaker": 1}}


def test_reprint_matches_original():
    from datetime import datetime

    from checkin import CheckInDesk

    desk = CheckInDesk(parse_registrations(CSV))
    original = desk.check_in("R3", datetime(2026, 9, 1, 9, 0))
    again = desk.reprint("R3")
    assert again["lines"] == original["lines"]
    assert again["ribbons"] == ["FIRST TIMER"]


def test_badge_codes():
    import pytest as _pytest

    from payload import PayloadError, decode, encode

    code = encode(parse_registrations(CSV)[0])
    assert decode(code) == {"e": "CONF26", "n": "Ada Lovelace", "r": "R1", "role": "s"}
    with _pytest.raises(PayloadError):
        decode(code[:-1] + ("0" if code[-1] != "0" else "1"))
