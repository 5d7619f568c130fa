"""Customer returns: good units go back on the shelf, damaged ones are written off."""
from dataclasses import dataclass, field


class ReturnError(ValueError):
    pass


@dataclass
class ReturnDesk:
    book: object
    written_off: dict = field(default_factory=dict)
    log: list = field(default_factory=list)

    def accept(self, order_id, sku, quantity, damaged=0):
        """Take back `quantity` units of `sku` from a shipped order; `damaged` of them cannot be resold."""
        reservation = self.book.by_order.get(order_id)
        if reservation is None or reservation.state != "shipped":
            raise ReturnError(f"order {order_id} has not shipped")
        sold = reservation.lines.get(sku, 0)
        already = sum(q for o, s, q, _ in self.log if o == order_id and s == sku)
        if quantity + already > sold:
            raise ReturnError(f"order {order_id} shipped {sold} of {sku}; {already} already returned")
        if not 0 <= damaged <= quantity:
            raise ReturnError("damaged must be between 0 and the returned quantity")
        resellable = quantity - damaged
        if resellable:
            self.book.stock.receive(sku, resellable)
        if damaged:
            self.written_off[sku] = self.written_off.get(sku, 0) + damaged
        self.log.append((order_id, sku, quantity, damaged))
        return resellable
