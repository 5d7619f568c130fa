"""Company-level reporting over departments and the ledger."""
from decimal import Decimal

from departments import Department
from ledger import Ledger


class Company:
    def __init__(self, name: str):
        self.ledger = Ledger(name)
        self.departments: dict[str, Department] = {}

    def add(self, dept: Department) -> None:
        if dept.name in self.departments:
            raise ValueError(f"department {dept.name} exists")
        self.departments[dept.name] = dept

    def expenses(self) -> Decimal:
        """Total expenses as the books show them."""
        return self.ledger.balance("expenses")

    def reconcile(self) -> dict[str, tuple[Decimal, Decimal]]:
        """Departments whose own spend differs from what the books show for them."""
        out = {}
        for name, d in self.departments.items():
            booked = self.ledger.balance("expenses", name)
            if booked != d.spent:
                out[name] = (d.spent, booked)
        return out
