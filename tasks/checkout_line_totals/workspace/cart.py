"""Shopping carts: lines of products, a coupon, tax, and refunds of single lines."""
from dataclasses import dataclass, field

from money import format_cents, percent_of, to_cents

TAX_PERCENT = 8


class CartError(ValueError):
    pass


@dataclass
class Line:
    product: object
    quantity: int

    @property
    def total_cents(self):
        return self.product.price_cents * self.quantity


@dataclass
class Cart:
    catalog: dict
    lines: dict = field(default_factory=dict)
    coupon_percent: int = 0
    credit_cents: int = 0

    def add(self, sku, quantity=1):
        if quantity < 1:
            raise CartError("quantity must be at least 1")
        if sku not in self.catalog:
            raise CartError(f"unknown sku {sku}")
        if sku in self.lines:
            self.lines[sku].quantity += quantity
        else:
            self.lines[sku] = Line(self.catalog[sku], quantity)
        return self

    def remove(self, sku):
        self.lines.pop(sku, None)
        return self

    def apply_coupon(self, percent):
        if not 0 < percent <= 50:
            raise CartError("coupons are between 1 and 50 percent")
        self.coupon_percent = percent

    def apply_store_credit(self, amount_text):
        self.credit_cents += to_cents(amount_text)

    def subtotal_cents(self):
        return sum(line.total_cents for line in self.lines.values())

    def discount_cents(self):
        return percent_of(self.subtotal_cents(), self.coupon_percent)

    def tax_cents(self):
        taxable = sum(line.total_cents for line in self.lines.values() if line.product.taxable)
        if self.coupon_percent:
            taxable -= percent_of(taxable, self.coupon_percent)
        return percent_of(taxable, TAX_PERCENT)

    def total_cents(self):
        total = self.subtotal_cents() - self.discount_cents() + self.tax_cents() - self.credit_cents
        return max(total, 0)

    def summary(self):
        return {
            "subtotal": format_cents(self.subtotal_cents()),
            "discount": format_cents(self.discount_cents()),
            "tax": format_cents(self.tax_cents()),
            "credit": format_cents(self.credit_cents),
            "total": format_cents(self.total_cents()),
        }
