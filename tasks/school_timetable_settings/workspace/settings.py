from vendor.layerconf import get_path, merge, set_path

DEFAULTS = {
    "day": {"start": "08:45", "periods": 6, "period_minutes": 50},
    "breaks": {"after": [2, 4], "minutes": {"2": 15, "4": 40}},
    "rooms": {"lab_subjects": ["chemistry", "physics"], "max_class": 30},
    "reports": {"locale": "en-GB", "show_teacher": True},
}

_overrides = {}


def configure(school, overrides):
    _overrides[school] = overrides


def settings_for(school):
    return merge(DEFAULTS, _overrides.get(school, {}))


def setting(school, path):
    return get_path(settings_for(school), path)


def with_change(school, path, value):
    overrides = _overrides.setdefault(school, {})
    set_path(overrides, path, value)
    return setting(school, path)


def reset():
    _overrides.clear()


def differences(school):
    from vendor.layerconf import diff

    return diff(DEFAULTS, settings_for(school))
