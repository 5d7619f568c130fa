"""Click events recorded by the web front end."""
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Click:
    session_id: str
    page: str
    element: str
    at_ms: int

    def __post_init__(self):
        if not self.session_id or not self.page:
            raise ValueError("session_id and page are required")
        if self.at_ms < 0:
            raise ValueError(f"timestamp must not be negative: {self.at_ms}")

    def to_record(self):
        return asdict(self)
