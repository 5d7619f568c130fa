from templates import template_for

MAX_CHARS = {18: 20, 12: 30, 9: 40}


def fit(text, pt):
    limit = MAX_CHARS.get(pt, 30)
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


def badge_layout(attendee):
    layout = dict(template_for(attendee.role))
    if attendee.company:
        layout["lines"].append({"field": "company", "font": "regular", "pt": 12})
    if attendee.pronouns:
        layout["lines"].append({"field": "pronouns", "font": "regular", "pt": 9})
    for ribbon in attendee.ribbons:
        if ribbon not in layout["ribbons"]:
            layout["ribbons"].append(ribbon)
    if attendee.vip:
        layout["colours"]["background"] = "#e8d7ff"
    return layout


def render_lines(attendee, layout):
    out = []
    for line in layout["lines"]:
        value = getattr(attendee, line["field"], "")
        if value:
            out.append((line["font"], line["pt"], fit(value, line["pt"])))
    return out
