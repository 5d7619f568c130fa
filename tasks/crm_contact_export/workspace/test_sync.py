from contacts import Contact
from csv_exchange import export_contacts, import_contacts
from sync import ContactBook

PLAIN = [
    Contact("c-1", "Priya Nair", "priya@northwind.example", "Northwind"),
    Contact("c-2", "Tom O'Neil", "tom@contoso.example", "Contoso, Ltd.", 'prefers "Tommy"'),
]
MULTILINE = Contact("c-3", "Ana Ruiz", "ana@fabrikam.example", "Fabrikam", "Met at the expo.\nWants a demo in May.")
PASTED = Contact("c-4", "Li Wei", "li@adatum.example", "Adatum", "Call after 3pm\r\nAsk for the CFO")


def test_export_writes_header_and_one_row_per_contact(tmp_path):
    assert export_contacts(PLAIN, tmp_path / "c.csv") == 2
    assert (tmp_path / "c.csv").read_text().startswith("contact_id,name,email,company,notes")


def test_plain_contacts_round_trip(tmp_path):
    export_contacts(PLAIN, tmp_path / "c.csv")
    contacts, problems = import_contacts(tmp_path / "c.csv")
    assert problems == []
    assert contacts == PLAIN


def test_short_row_is_reported_with_its_line(tmp_path):
    (tmp_path / "c.csv").write_text(
        "contact_id,name,email,company,notes\nc-1,Priya,priya@northwind.example,Northwind,\nc-2,Tom\n"
    )
    contacts, problems = import_contacts(tmp_path / "c.csv")
    assert [c.contact_id for c in contacts] == ["c-1"]
    assert problems == ["line 3: expected 5 fields, got 2"]


def test_resync_of_unedited_export_changes_nothing(tmp_path):
    book = ContactBook(PLAIN + [MULTILINE])
    export_contacts(book.all(), tmp_path / "c.csv")
    report = book.sync_from_csv(tmp_path / "c.csv")
    assert report.problems == []
    assert report.added == [] and report.updated == []


def test_notes_pasted_from_windows_keep_their_line_breaks(tmp_path):
    book = ContactBook(PLAIN + [PASTED])
    export_contacts(book.all(), tmp_path / "c.csv")
    report = book.sync_from_csv(tmp_path / "c.csv")
    assert report.updated == []
    assert book.get("c-4").notes == PASTED.notes
