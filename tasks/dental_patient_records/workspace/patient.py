"""Patient master data used by the practice's recall reminders."""
from dataclasses import dataclass
from datetime import date


@dataclass
class Patient:
    patient_id: str
    name: str
    mobile_phone: str | None = None
    email: str | None = None
    recall_months: int = 6
    last_visit: date | None = None

    def recall_due_on(self) -> date | None:
        if self.last_visit is None:
            return None
        month_index = self.last_visit.month - 1 + self.recall_months
        year = self.last_visit.year + month_index // 12
        return date(year, month_index % 12 + 1, min(self.last_visit.day, 28))
