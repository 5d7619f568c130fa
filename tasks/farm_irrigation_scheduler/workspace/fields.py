"""Fields, their irrigation zones and crops."""
from dataclasses import dataclass, field

# Crop coefficients (Kc) by growth stage: water use relative to reference evapotranspiration.
CROP_KC = {
    "maize": {"initial": 0.3, "mid": 1.2, "late": 0.6},
    "tomato": {"initial": 0.6, "mid": 1.15, "late": 0.8},
    "lettuce": {"initial": 0.7, "mid": 1.0, "late": 0.95},
    "alfalfa": {"initial": 0.4, "mid": 0.95, "late": 0.9},
}

SOIL_HOLDING_MM = {"sand": 8, "loam": 18, "clay": 25}


@dataclass
class Zone:
    name: str
    crop: str
    stage: str
    area_m2: float
    soil: str = "loam"
    flow_lpm: float = 60.0

    def __post_init__(self):
        if self.crop not in CROP_KC:
            raise ValueError(f"zone {self.name}: unknown crop {self.crop!r}")
        if self.stage not in CROP_KC[self.crop]:
            raise ValueError(f"zone {self.name}: unknown stage {self.stage!r}")
        if self.soil not in SOIL_HOLDING_MM:
            raise ValueError(f"zone {self.name}: unknown soil {self.soil!r}")
        if self.area_m2 <= 0 or self.flow_lpm <= 0:
            raise ValueError(f"zone {self.name}: area and flow must be positive")

    @property
    def kc(self):
        return CROP_KC[self.crop][self.stage]

    @property
    def holding_mm(self):
        return SOIL_HOLDING_MM[self.soil]


@dataclass
class Farm:
    name: str
    zones: list = field(default_factory=list)
    pump_lpm: float = 120.0

    def zone(self, name):
        for z in self.zones:
            if z.name == name:
                return z
        raise KeyError(f"{self.name}: no zone {name!r}")
