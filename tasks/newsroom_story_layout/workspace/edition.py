"""Building an edition: the stories of each desk in page order, with the space they take."""
from layout import column_inches, lay_out


def page_plan(stories, inches_per_page=60):
    """Stories in desk order (news, business, sport, features), filled page by page."""
    order = {"news": 0, "business": 1, "sport": 2, "features": 3}
    pages, current, used = [], [], 0.0
    for story in sorted(stories, key=lambda s: (order[s.desk], s.slug)):
        inches = column_inches(story)
        if current and used + inches > inches_per_page:
            pages.append(current)
            current, used = [], 0.0
        current.append(story.slug)
        used += inches
    if current:
        pages.append(current)
    return pages


def web_teasers(stories):
    """Headline and first line of the body as laid out, for the home page."""
    out = {}
    for story in stories:
        lines = lay_out(story)
        out[story.slug] = (lines[0], lines[3] if len(lines) > 3 else "")
    return out
