"""Support desk operations: refunds and order notes, run on behalf of a support agent."""
from typing import Callable

from audit import AuditLog
from request_context import RequestContext


class PaymentProvider:
    def __init__(self):
        self.refunds: list[tuple[str, str, int]] = []

    def refund(self, ctx: RequestContext, order_id: str, amount_cents: int) -> None:
        ctx.require("billing")
        if amount_cents <= 0:
            raise ValueError(f"refund amount must be positive, got {amount_cents}")
        self.refunds.append((ctx.actor, order_id, amount_cents))


class SupportDesk:
    def __init__(self, audit: AuditLog, provider: PaymentProvider):
        self.audit = audit
        self.provider = provider
        self.notes: dict[str, list[tuple[str, str]]] = {}

    def refund(self, order_id: str, amount_cents: int) -> None:
        ctx = RequestContext.current()
        ctx.require("support")
        self.audit.note("refund.requested", order_id)
        # Provider credentials belong to the billing service account, never to agents.
        billing = RequestContext("svc-billing", ctx.request_id, roles=("billing",))
        self.provider.refund(billing, order_id, amount_cents)
        self.audit.note("refund.issued", order_id)

    def add_note(self, order_id: str, text: str) -> None:
        ctx = RequestContext.current()
        ctx.require("support")
        self.notes.setdefault(order_id, []).append((ctx.actor, text))
        self.audit.note("note.added", order_id)


def handle(desk: SupportDesk, actor: str, roles: tuple[str, ...], request_id: str,
           operation: Callable[[SupportDesk], None]) -> None:
    """Run one request: set up its context, run the operation, then write or drop its audit events."""
    RequestContext.begin(actor, request_id, roles)
    try:
        operation(desk)
    except Exception:
        desk.audit.discard()
        raise
    desk.audit.commit()
