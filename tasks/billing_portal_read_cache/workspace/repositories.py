"""Customer and invoice repositories over the billing database."""
from dataclasses import dataclass

from caching import cached, invalidate


@dataclass(frozen=True)
class Customer:
    customer_id: int
    name: str
    invoice_ids: tuple[int, ...]


@dataclass(frozen=True)
class Invoice:
    invoice_id: int
    customer_id: int
    amount_cents: int
    paid: bool


class Database:
    """Table name -> primary key -> row. Counts reads so cache behaviour can be observed."""

    def __init__(self, tables: dict[str, dict[int, dict]]):
        self.tables = tables
        self.reads = 0

    def fetch(self, table: str, key: int) -> dict:
        self.reads += 1
        try:
            return dict(self.tables[table][key])
        except KeyError:
            raise LookupError(f"{table} {key} not found") from None


class CustomerRepository:
    def __init__(self, db: Database):
        self.db = db

    @cached(ttl_s=60)
    def get(self, customer_id: int) -> Customer:
        row = self.db.fetch("customers", customer_id)
        return Customer(customer_id, row["name"], tuple(row["invoice_ids"]))

    def rename(self, customer_id: int, name: str) -> None:
        self.db.tables["customers"][customer_id]["name"] = name
        invalidate(CustomerRepository.get, customer_id)


class InvoiceRepository:
    def __init__(self, db: Database):
        self.db = db

    @cached(ttl_s=10)
    def get(self, invoice_id: int) -> Invoice:
        row = self.db.fetch("invoices", invoice_id)
        return Invoice(invoice_id, row["customer_id"], row["amount_cents"], row["paid"])
