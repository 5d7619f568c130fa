from decimal import Decimal


class ReconciliationError(RuntimeError):
    pass


def cash_in_box(machine):
    return sum((coin * count for coin, count in machine.cash.items()), Decimal(0))


def change_given(machine):
    return cash_in_box(machine) - machine.takings()


def reconcile(machine, counted):
    """Compare a technician's coin count with the machine's own records."""
    expected = cash_in_box(machine)
    counted = Decimal(counted)
    diff = counted - expected
    status = "ok" if diff == 0 else ("over" if diff > 0 else "short")
    return {"machine": machine.machine_id, "expected": str(expected), "counted": str(counted), "status": status}


def price_audit(operator, code):
    """Machines whose current shelf price differs from the most common one for a product."""
    board = operator.price_board(code)
    if not board:
        return []
    counts = {}
    for price in board.values():
        counts[price] = counts.get(price, 0) + 1
    usual = max(sorted(counts), key=counts.get)
    return sorted(mid for mid, price in board.items() if price != usual)


def best_sellers(operator, top=3):
    totals = {}
    for m in operator.machines.values():
        for code, _ in m.sales:
            totals[code] = totals.get(code, 0) + 1
    return sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
