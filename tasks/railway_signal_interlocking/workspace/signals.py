"""Lineside signals and their aspects."""

ASPECTS = ("red", "yellow", "double_yellow", "green")

DEFAULT_STATE = {"aspect": "red", "route": None, "cleared_count": 0}


class Signal:
    def __init__(self, name, protects, state=None):
        self.name = name
        self.protects = protects
        self.state = state if state is not None else DEFAULT_STATE

    @property
    def aspect(self):
        return self.state["aspect"]

    @property
    def route(self):
        return self.state["route"]

    def clear(self, aspect, route):
        if aspect not in ASPECTS or aspect == "red":
            raise ValueError(f"signal {self.name}: cannot clear to {aspect!r}")
        self.state["aspect"] = aspect
        self.state["route"] = route
        self.state["cleared_count"] += 1

    def to_danger(self):
        self.state["aspect"] = "red"
        self.state["route"] = None

    def is_clear(self):
        return self.aspect != "red"


def aspect_for(free_blocks_ahead):
    """Aspect shown for a route with this many free blocks beyond its exit."""
    if free_blocks_ahead >= 3:
        return "green"
    if free_blocks_ahead == 2:
        return "double_yellow"
    return "yellow"
