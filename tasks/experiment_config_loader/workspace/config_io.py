"""Reads and writes experiment configs as JSON files next to each run's checkpoints."""
import json
from dataclasses import asdict, fields, is_dataclass
from pathlib import Path

from config import ExperimentConfig


class ConfigError(ValueError):
    pass


def from_dict(cls, data: dict):
    """Builds ``cls`` from a plain dict, recursing into nested dataclass fields."""
    known = {f.name for f in fields(cls)}
    unknown = set(data) - known
    if unknown:
        raise ConfigError(f"{cls.__name__}: unknown keys {sorted(unknown)}")
    kwargs = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        if is_dataclass(f.type) and isinstance(value, dict):
            value = from_dict(f.type, value)
        kwargs[f.name] = value
    return cls(**kwargs)


def save_config(cfg: ExperimentConfig, path: Path) -> None:
    Path(path).write_text(json.dumps(asdict(cfg), indent=2))


def load_config(path: Path) -> ExperimentConfig:
    return from_dict(ExperimentConfig, json.loads(Path(path).read_text()))
