from dataclasses import dataclass, field


class ConfigError(ValueError):
    pass


@dataclass
class AppConfig:
    env: str
    api_key: str
    region: str = "eu"
    overrides: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.env not in ("dev", "staging", "prod"):
            raise ConfigError(f"unknown env {self.env!r}")
        if not self.api_key.startswith("fw_"):
            raise ConfigError("api keys start with fw_")


def parse(text):
    values = {}
    overrides = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if "=" not in line:
            raise ConfigError(f"bad line {raw!r}")
        name, value = (p.strip() for p in line.split("=", 1))
        if name.startswith("flag."):
            overrides[name[5:]] = value.lower() in ("1", "true", "on")
        else:
            values[name] = value
    try:
        return AppConfig(values["env"], values["api_key"], values.get("region", "eu"), overrides)
    except KeyError as missing:
        raise ConfigError(f"missing {missing}") from None


def dumps(config):
    lines = [f"env = {config.env}", f"api_key = {config.api_key}", f"region = {config.region}"]
    for name, value in sorted(config.overrides.items()):
        lines.append(f"flag.{name} = {'on' if value else 'off'}")
    return "\n".join(lines) + "\n"
