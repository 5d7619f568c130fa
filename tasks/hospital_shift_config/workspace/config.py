"""Ward configuration files (INI): a [defaults] section and one section per ward."""
import configparser

from schema import WARD_SETTINGS, ConfigError

BY_KEY = {s.key: s for s in WARD_SETTINGS}


def parse_config(text):
    """{ward name: {key: typed value}}; every ward starts from the defaults section."""
    parser = configparser.ConfigParser(interpolation=None, default_section="defaults")
    try:
        parser.read_string(text)
    except configparser.Error as exc:
        raise ConfigError(f"unreadable configuration: {exc}") from None
    wards = {}
    for section in parser.sections():
        values = {}
        for setting in WARD_SETTINGS:
            raw = parser[section].get(setting.key)
            values[setting.key] = setting.default if raw is None else setting.coerce(raw)
        unknown = set(parser[section]) - set(BY_KEY)
        if unknown:
            raise ConfigError(f"[{section}]: unknown settings {sorted(unknown)}")
        wards[section] = values
    return wards


def describe(ward, values):
    flags = [k for k in ("twelve_hour_shifts", "night_differential", "weekend_differential", "charge_nurse_required") if values[k]]
    return f"{ward}: {values['beds']} beds, flags {', '.join(flags) or 'none'}"


def _format(value):
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(value)
    if hasattr(value, "strftime"):
        return value.strftime("%H:%M")
    return str(value)


def dump_config(wards):
    """INI text for the wards, listing only settings that differ from the built-in defaults."""
    lines = []
    for ward in sorted(wards):
        lines.append(f"[{ward}]")
        for setting in WARD_SETTINGS:
            value = wards[ward][setting.key]
            if value != setting.default:
                lines.append(f"{setting.key} = {_format(value)}")
        lines.append("")
    return "\n".join(lines)
