import hashlib
from dataclasses import dataclass, field


def bucket(flag_key, user_id, salt=""):
    digest = hashlib.sha256(f"{salt}:{flag_key}:{user_id}".encode()).hexdigest()
    return int(digest[:8], 16) % 100


@dataclass
class Rule:
    key: str
    enabled: bool = True
    rollout_pct: int = 100
    allow: set = field(default_factory=set)
    deny: set = field(default_factory=set)
    attributes: dict = field(default_factory=dict)

    def matches(self, user_id, attrs, salt=""):
        if not self.enabled:
            return False
        if user_id in self.deny:
            return False
        if user_id in self.allow:
            return True
        for name, wanted in self.attributes.items():
            if attrs.get(name) not in wanted:
                return False
        return bucket(self.key, user_id, salt) < self.rollout_pct


def rule_from_dict(d):
    return Rule(
        key=d["key"],
        enabled=d.get("enabled", True),
        rollout_pct=int(d.get("rollout_pct", 100)),
        allow=set(d.get("allow", [])),
        deny=set(d.get("deny", [])),
        attributes={k: set(v) for k, v in d.get("attributes", {}).items()},
    )
