"""Printing shipping labels in batches: a batch is stored whole or not at all, then sent to the dock printer."""
from shipments import check

LABEL_TEMPLATE = "^XA^FO50,50^A0N,40^FD{carrier}^FS^FO50,120^BCN,100^FD{tracking}^FS^FO50,260^FD{kg} kg^FS^XZ"


class BatchRejected(RuntimeError):
    pass


def render(shipment):
    kg = f"{shipment.weight_g / 1000:.1f}"
    return LABEL_TEMPLATE.format(carrier=shipment.carrier.upper(), tracking=shipment.tracking, kg=kg)


def print_batch(pool, batch_id, shipments):
    """Store one label per shipment under `batch_id`; returns the ZPL to send, or raises BatchRejected."""
    documents = []
    try:
        with pool.connection() as conn:
            for shipment in shipments:
                zpl = render(check(shipment))
                conn.execute("INSERT INTO labels (tracking, batch, zpl) VALUES (?, ?, ?)", (shipment.tracking, batch_id, zpl))
                documents.append(zpl)
            conn.commit()
    except Exception as exc:
        raise BatchRejected(f"batch {batch_id}: {exc}") from exc
    return documents


def labels_in(pool, batch_id):
    with pool.connection() as conn:
        return [row[0] for row in conn.execute("SELECT tracking FROM labels WHERE batch = ? ORDER BY tracking", (batch_id,))]


def unlabelled(pool, dock):
    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT s.tracking FROM shipments s LEFT JOIN labels l ON l.tracking = s.tracking "
            "WHERE s.dock = ? AND l.tracking IS NULL ORDER BY s.tracking",
            (dock,),
        )
        return [row[0] for row in rows]


def reprint(pool, tracking):
    """The stored ZPL of one label, for a jammed printer; the dock never re-renders a label it already issued."""
    with pool.connection() as conn:
        row = conn.execute("SELECT zpl FROM labels WHERE tracking = ?", (tracking,)).fetchone()
    if row is None:
        raise KeyError(f"no label printed for {tracking}")
    return row[0]
