DEFAULT_TEMPLATE = {
    "size_mm": (90, 55),
    "lines": [{"field": "name", "font": "bold", "pt": 18}],
    "ribbons": [],
    "colours": {"background": "#ffffff", "text": "#111111"},
}

TEMPLATES = {
    "attendee": DEFAULT_TEMPLATE,
    "speaker": {
        "size_mm": (90, 55),
        "lines": [{"field": "name", "font": "bold", "pt": 18}, {"field": "talk", "font": "italic", "pt": 9}],
        "ribbons": ["SPEAKER"],
        "colours": {"background": "#fff4d6", "text": "#111111"},
    },
}


class TemplateError(KeyError):
    pass


def template_for(role):
    try:
        return TEMPLATES[role]
    except KeyError:
        raise TemplateError(f"no badge template for role {role!r}") from None


def line_fields(template):
    return [line["field"] for line in template["lines"]]


def register_template(role, template):
    missing = {"size_mm", "lines", "ribbons", "colours"} - set(template)
    if missing:
        raise TemplateError(f"template for {role!r} lacks {sorted(missing)}")
    for line in template["lines"]:
        if not {"field", "font", "pt"} <= set(line):
            raise TemplateError(f"bad line spec {line!r}")
    TEMPLATES[role] = template
    return template


def roles():
    return sorted(TEMPLATES)
