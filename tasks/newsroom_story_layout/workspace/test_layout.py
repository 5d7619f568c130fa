from datetime import date

from budget import desk_totals, over_budget, reading_minutes
from corrections import CorrectionsLog
from edition import page_plan, web_teasers
from layout import lay_out, style_for
from stories import Story, by_desk, tagged
from text import case_headline, truncate

BODY = "The harbour board voted on Tuesday to widen the northern channel so that larger ferries can dock."


def story(slug, desk, headline="harbour board approves channel dredging", city="Portsmouth"):
    return Story(slug, desk, headline, "Ana Reyes", city, date(2027, 5, 4), BODY)


def test_text_helpers():
    assert case_headline("the rise of the tides", "title") == "The Rise of the Tides"
    assert truncate("one two three four", 12) == "one two…"


def test_news_layout():
    lines = lay_out(story("dredge", "news"))
    assert lines[0] == "Harbour board approves channel dredging"
    assert lines[1] == "By Ana Reyes"
    assert lines[3].startswith("PORTSMOUTH — The harbour board")
    assert max(len(l) for l in lines[3:]) <= 38


def test_sport_desk_style():
    lines = lay_out(story("derby", "sport", "city and rovers share the points in a late derby thriller"))
    assert lines[0] == "CITY AND ROVERS SHARE THE POINTS IN A LATE DERBY…"


def test_desk_styles_do_not_leak():
    lay_out(story("derby", "sport"))
    lay_out(story("profile", "features"))
    lines = lay_out(story("dredge", "news"))
    assert lines[0] == "Harbour board approves channel dredging"
    assert lines[3].startswith("PORTSMOUTH — ")


def test_one_off_override_applies_once():
    wide = lay_out(story("dredge", "news"), extra={"column_width": 60})
    normal = lay_out(story("dredge", "news"))
    assert max(len(l) for l in wide[3:]) > 38
    assert max(len(l) for l in normal[3:]) <= 38
    assert style_for("news").column_width == 38


def test_edition_plan_and_teasers():
    stories = [story("dredge", "news"), story("derby", "sport"), story("profile", "features"), story("rates", "business")]
    stories[0].tags.append("harbour")
    assert by_desk(stories)["news"] == ["dredge"] and tagged(stories, "harbour") == ["dredge"]
    assert page_plan(stories, inches_per_page=1) == [["dredge"], ["rates"], ["derby"], ["profile"]]
    teasers = web_teasers(stories)
    assert teasers["dredge"][0] == "Harbour board approves channel dredging"
    assert teasers["profile"][1].startswith("[T]he harbour board")


def test_corrections_and_budgets():
    log = CorrectionsLog()
    original = story("dredge", "news")
    fixed = log.correct(original, date(2027, 5, 5), "city", "Southampton", "The vote took place in Southampton.")
    assert original.city == "Portsmouth" and fixed.city == "Southampton"
    assert log.notice("dredge") == "Corrected on 2027-05-05: The vote took place in Southampton."
    assert lay_out(fixed)[3].startswith("SOUTHAMPTON — ")
    long_read = Story("essay", "sport", "a season to remember", "Bo", "Leeds", date(2027, 5, 6), "word " * 620)
    assert over_budget([original, long_read]) == {"essay": 120}
    assert reading_minutes(long_read) == 3
    assert desk_totals([original, long_read]) == {"news": 17, "sport": 620}
