"""Typed settings: each key in the ward configuration has a kind, a default and bounds."""
from dataclasses import dataclass
from datetime import time


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class Setting:
    key: str
    kind: str
    default: object
    low: float = None
    high: float = None

    def coerce(self, raw):
        text = raw.strip()
        try:
            if self.kind == "int":
                value = int(text)
            elif self.kind == "float":
                value = float(text)
            elif self.kind == "bool":
                lowered = text.lower()
                if lowered not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
                    raise ValueError(text)
                value = lowered in ("true", "yes", "on", "1")
            elif self.kind == "time":
                hours, minutes = text.split(":")
                value = time(int(hours), int(minutes))
            elif self.kind == "list":
                value = [item.strip() for item in text.split(",") if item.strip()]
            else:
                value = text
        except ValueError:
            raise ConfigError(f"{self.key}: cannot read {raw!r} as {self.kind}") from None
        if self.low is not None and value < self.low:
            raise ConfigError(f"{self.key}: {value} is below {self.low}")
        if self.high is not None and value > self.high:
            raise ConfigError(f"{self.key}: {value} is above {self.high}")
        return value


WARD_SETTINGS = [
    Setting("beds", "int", 20, 1, 80),
    Setting("nurse_ratio_day", "float", 4.0, 1, 8),
    Setting("nurse_ratio_night", "float", 6.0, 1, 10),
    Setting("day_start", "time", time(7, 0)),
    Setting("night_start", "time", time(19, 0)),
    Setting("twelve_hour_shifts", "bool", True),
    Setting("night_differential", "bool", True),
    Setting("weekend_differential", "bool", False),
    Setting("differential_percent", "int", 20, 0, 100),
    Setting("charge_nurse_required", "bool", True),
    Setting("skills", "list", ["general"]),
]
