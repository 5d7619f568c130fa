"""A small synchronous event emitter used by the hub's device drivers."""
from dataclasses import dataclass
from typing import Any, Callable


@dataclass(eq=False)
class Subscription:
    fn: Callable[[Any], None]
    once: bool


class Emitter:
    def __init__(self):
        self._subs: dict[str, list[Subscription]] = {}

    def on(self, event: str, fn: Callable[[Any], None]) -> Subscription:
        sub = Subscription(fn, once=False)
        self._subs.setdefault(event, []).append(sub)
        return sub

    def once(self, event: str, fn: Callable[[Any], None]) -> Subscription:
        """Run `fn` on the next `event` only."""
        sub = Subscription(fn, once=True)
        self._subs.setdefault(event, []).append(sub)
        return sub

    def off(self, event: str, sub: Subscription) -> None:
        self._subs.get(event, []).remove(sub)

    def emit(self, event: str, payload: Any = None) -> int:
        """Call the event's handlers in subscription order; returns how many ran."""
        current = list(self._subs.get(event, []))
        ran = 0
        for sub in current:
            if sub.once:
                self.off(event, sub)
            sub.fn(payload)
            ran += 1
        return ran

    def count(self, event: str) -> int:
        return len(self._subs.get(event, []))
