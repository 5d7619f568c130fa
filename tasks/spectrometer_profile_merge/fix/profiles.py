"""Per-instrument profiles: the lab defaults with that instrument's overrides on top."""
from defaults import INSTRUMENT_DEFAULTS, LAMP_LINES_NM, SPEC
from vendor.layerconf import ConfigError, deep_merge, parse_overrides, require


class ProfileError(ValueError):
    pass


def build_profile(name, overrides=(), site=None):
    """`site` is the instrument's file layer (a dict); `overrides` are command-line `dotted.key=value` strings."""
    layers = [site or {}, parse_overrides(overrides)]
    conf = deep_merge({}, INSTRUMENT_DEFAULTS, *layers)
    try:
        require(conf, SPEC)
    except ConfigError as exc:
        raise ProfileError(f"{name}: {exc}") from None
    if conf["calibration"]["lamp"] not in LAMP_LINES_NM:
        raise ProfileError(f"{name}: no reference lines for lamp {conf['calibration']['lamp']!r}")
    conf["name"] = name
    return conf


def effective_pixels(conf):
    return conf["detector"]["pixels"] // conf["detector"]["binning"]
