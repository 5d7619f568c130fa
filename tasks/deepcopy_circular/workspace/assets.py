"""Materials and palettes: values that many nodes point at."""
from dataclasses import dataclass, field


@dataclass
class Palette:
    name: str
    colours: list = field(default_factory=list)

    def add(self, colour):
        if not colour.startswith("#") or len(colour) not in (4, 7):
            raise ValueError(f"not a hex colour: {colour}")
        self.colours.append(colour)
        return self


@dataclass
class Material:
    name: str
    palette: Palette
    options: dict = field(default_factory=dict)

    def tint(self, index):
        return self.palette.colours[index % len(self.palette.colours)]


def default_palette():
    return Palette("base").add("#fff").add("#000").add("#3366cc")


def lighting(intensity=1.0):
    return {"intensity": intensity, "shadows": {"enabled": True, "softness": 0.5}}
