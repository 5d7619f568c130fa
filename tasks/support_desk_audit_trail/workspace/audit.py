"""Audit trail. Events are buffered and written when the request finishes, so a failed request leaves no partial trail."""
from dataclasses import dataclass

from request_context import RequestContext


@dataclass(frozen=True)
class AuditEntry:
    request_id: str
    actor: str
    action: str
    target: str


class AuditLog:
    def __init__(self):
        self._pending: list[tuple[RequestContext, str, str]] = []
        self.written: list[AuditEntry] = []

    def note(self, action: str, target: str) -> None:
        self._pending.append((RequestContext.current(), action, target))

    def commit(self) -> None:
        for ctx, action, target in self._pending:
            self.written.append(AuditEntry(ctx.request_id, ctx.actor, action, target))
        self._pending.clear()

    def discard(self) -> None:
        self._pending.clear()
