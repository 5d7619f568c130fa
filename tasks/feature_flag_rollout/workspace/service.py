import flags
from config import AppConfig, parse


class Storefront:
    def __init__(self, config: AppConfig):
        self.config = config
        self.client = flags.get_client(config.env, config.api_key)
        self.reloads = 0

    def enabled(self, flag, user_id, **attrs):
        if flag in self.config.overrides:
            return self.config.overrides[flag]
        attrs.setdefault("region", self.config.region)
        return self.client.is_enabled(flag, user_id, attrs)

    def checkout_flow(self, user_id, **attrs):
        if self.enabled("one_click_checkout", user_id, **attrs):
            return "one-click"
        if self.enabled("new_checkout", user_id, **attrs):
            return "v2"
        return "classic"

    def reload(self, text):
        new_config = parse(text)
        flags.shutdown(self.config.env)
        self.config = new_config
        self.client = flags.get_client(new_config.env, new_config.api_key)
        self.reloads += 1

    def rotate_key(self, new_key):
        old = self.client
        self.config = AppConfig(self.config.env, new_key, self.config.region, self.config.overrides)
        self.client = flags.get_client(self.config.env, new_key)
        old.close()

    def exposure_report(self, flag, user_ids, **attrs):
        on = [u for u in user_ids if self.enabled(flag, u, **attrs)]
        return {
            "flag": flag,
            "users": len(user_ids),
            "enabled": len(on),
            "pct": round(100 * len(on) / len(user_ids), 1) if user_ids else 0.0,
        }

    def refresh(self):
        return self.client.refresh()
