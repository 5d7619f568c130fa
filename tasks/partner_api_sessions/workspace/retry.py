"""Back-off for throttled partner calls."""
from defaults import DEFAULT_RETRY


class RetryPolicy:
    def __init__(self, settings: dict | None = None):
        self.settings = settings or DEFAULT_RETRY
        if self.settings["attempts"] < 1:
            raise ValueError("attempts must be at least 1")

    @property
    def attempts(self) -> int:
        return self.settings["attempts"]

    @property
    def delay_s(self) -> float:
        return self.settings["delay_s"]

    def on_throttled(self) -> None:
        """The partner asked us to slow down: double the delay, up to the cap."""
        self.settings["delay_s"] = min(self.settings["delay_s"] * 2, self.settings["max_delay_s"])
