"""Reads and writes experiment configs as JSON files next to each run's checkpoints."""
import json
import types
import typing
from dataclasses import asdict, fields, is_dataclass
from pathlib import Path

from config import ExperimentConfig


class ConfigError(ValueError):
    pass


def _dataclass_in(annotation):
    """The dataclass named by an annotation, looking inside ``Optional[X]`` / ``X | None``; else None."""
    if is_dataclass(annotation):
        return annotation
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            if is_dataclass(arg):
                return arg
    return None


def from_dict(cls, data: dict):
    """Builds ``cls`` from a plain dict, recursing into nested dataclass fields."""
    known = {f.name for f in fields(cls)}
    unknown = set(data) - known
    if unknown:
        raise ConfigError(f"{cls.__name__}: unknown keys {sorted(unknown)}")
    # config.py uses postponed annotations, so f.type is a string; resolve the real types.
    hints = typing.get_type_hints(cls)
    kwargs = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        nested = _dataclass_in(hints[f.name])
        if nested is not None and isinstance(value, dict):
            value = from_dict(nested, value)
        kwargs[f.name] = value
    return cls(**kwargs)


def save_config(cfg: ExperimentConfig, path: Path) -> None:
    Path(path).write_text(json.dumps(asdict(cfg), indent=2))


def load_config(path: Path) -> ExperimentConfig:
    return from_dict(ExperimentConfig, json.loads(Path(path).read_text()))
