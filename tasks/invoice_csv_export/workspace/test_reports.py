import csv

import pytest

from exporter import AtomicExport, ExportBusy
from reports import export_invoices
from rows import InvalidInvoice

GOOD = [
    {"id": "INV-1", "customer": "Acme", "issued": "2024-03-01", "net": "100", "vat": "20"},
    {"id": "INV-2", "customer": "Globex", "issued": "2024-03-02", "net": "50.5", "vat": "10.1"},
]
BAD = GOOD + [{"id": "INV-3", "customer": "Initech", "net": "n/a"}]


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def test_export_writes_header_and_rows(tmp_path):
    dest = tmp_path / "march.csv"
    assert export_invoices(GOOD, dest) == 2
    rows = read_rows(dest)
    assert rows[0] == ["invoice_id", "customer", "issued", "net", "vat", "gross"]
    assert rows[2] == ["INV-2", "Globex", "2024-03-02", "50.50", "10.10", "60.60"]


def test_bad_invoice_keeps_previous_report(tmp_path):
    dest = tmp_path / "march.csv"
    export_invoices(GOOD[:1], dest)
    with pytest.raises(InvalidInvoice, match="INV-3"):
        export_invoices(BAD, dest)
    assert [row[0] for row in read_rows(dest)] == ["invoice_id", "INV-1"]
    assert not (tmp_path / "march.csv.part").exists()


def test_export_can_be_rerun_after_fixing_bad_invoice(tmp_path):
    dest = tmp_path / "march.csv"
    with pytest.raises(InvalidInvoice):
        export_invoices(BAD, dest)
    assert export_invoices(GOOD, dest) == 2
    assert len(read_rows(dest)) == 3


def test_second_export_to_same_file_is_refused_while_first_runs(tmp_path):
    dest = tmp_path / "march.csv"
    with AtomicExport(dest):
        with pytest.raises(ExportBusy):
            export_invoices(GOOD, dest)
    assert export_invoices(GOOD, dest) == 2


def test_repeated_exports_overwrite(tmp_path):
    dest = tmp_path / "march.csv"
    export_invoices(GOOD, dest)
    export_invoices(GOOD[:1], dest)
    assert len(read_rows(dest)) == 2
