"""Laying out a story for the page: headline, byline, dateline and the body in columns."""
from style import DESK_OVERRIDES, HOUSE
from text import case_headline, drop_cap, truncate, wrap


def style_for(desk, extra=None):
    """The house style with the desk's overrides and any one-off ones."""
    return HOUSE.updated(**DESK_OVERRIDES.get(desk, {}), **(extra or {}))


def lay_out(story, extra=None):
    style = style_for(story.desk, extra)
    headline = truncate(case_headline(story.headline, style.headline_case), style.max_headline)
    lines = [headline, f"{style.byline_prefix} {story.author}"]
    body = story.body
    if style.dateline:
        body = f"{story.city.upper()} — {body}"
    column = wrap(body, style.column_width)
    if style.drop_cap:
        column = drop_cap(column)
    return lines + [""] + column


def column_inches(story, extra=None, lines_per_inch=6):
    lines = lay_out(story, extra)
    return round(len(lines) / lines_per_inch, 1)
