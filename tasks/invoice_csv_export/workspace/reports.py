"""The monthly invoice report."""
import csv

from exporter import AtomicExport
from rows import COLUMNS, invoice_row


def export_invoices(invoices, dest):
    """Write `invoices` to `dest` as CSV and return how many rows were written."""
    count = 0
    with AtomicExport(dest) as handle:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        for invoice in invoices:
            writer.writerow(invoice_row(invoice))
            count += 1
    return count
