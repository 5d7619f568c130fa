"""Index update jobs."""
from dataclasses import dataclass, field


@dataclass
class IndexUpdate:
    doc_id: str
    fields: dict
    attempts: int = 0
    errors: list = field(default_factory=list)

    def __post_init__(self):
        if not self.doc_id:
            raise ValueError("doc_id is required")
