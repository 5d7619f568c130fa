"""Loading a deployment's settings: defaults, then a profile, then the environment."""
from checks import check
from defaults import DEFAULTS, PROFILES
from env import env_layer
from layering import diff, flatten, merge


class UnknownProfile(KeyError):
    pass


class Settings:
    def __init__(self, profile, data):
        self.profile = profile
        self.data = data

    def get(self, dotted, default=None):
        node = self.data
        for part in dotted.split("."):
            if not isinstance(node, dict) or part not in node:
                return default
            node = node[part]
        return node

    def with_overrides(self, layer):
        """A new Settings with `layer` applied; this one is unchanged."""
        return Settings(self.profile, merge(dict(self.data), layer))

    def changes_from_defaults(self):
        return diff(DEFAULTS, self.data)

    def as_flat(self):
        return flatten(self.data)


def load(profile, environ=None):
    if profile not in PROFILES:
        raise UnknownProfile(f"{profile!r}; known: {', '.join(sorted(PROFILES))}")
    data = merge(dict(DEFAULTS), PROFILES[profile])
    if environ:
        data = merge(data, env_layer(environ))
    return Settings(profile, check(data))


def describe(settings):
    """The lines `orders config show` prints: every key that differs from the defaults."""
    lines = [f"profile {settings.profile}"]
    for key, (before, after) in settings.changes_from_defaults().items():
        lines.append(f"  {key}: {before!r} -> {after!r}")
    return "\n".join(lines)
