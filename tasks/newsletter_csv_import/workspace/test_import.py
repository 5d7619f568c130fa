from contacts import RowError, from_row
from csvparse import normalise_header, parse
from importer import MailingList
from upload import UploadError, decode_upload, fingerprint

import pytest

CSV = "Email,First name,Last name,Opt-in,Tags\nana@example.com,Ana,Lima,yes,vip|eu\nbo@example.org,Bo,Berg,no,\ncy@example.net,Cy,,1,EU\n"


def test_headers_are_normalised_with_aliases():
    assert [normalise_header(h) for h in ("E-mail", " First Name ", "Opt-in", "Surname")] == ["email", "first_name", "consent", "last_name"]


def test_plain_utf8_file_imports_consenting_contacts():
    mailing = MailingList("news")
    result = mailing.import_file(CSV.encode("utf-8"))
    assert (result.added, result.updated) == (2, 0)
    assert result.errors == [(3, "bo@example.org has not opted in")]
    assert mailing.contacts["ana@example.com"].tags == ("eu", "vip")


def test_semicolon_windows_file():
    data = "email;name;consent\r\njosé@example.com;José Díaz;yes\r\n".encode("cp1252")
    result = MailingList("news").import_file(data)
    assert result.errors == [] and result.added == 1


def test_rows_are_checked():
    with pytest.raises(RowError):
        from_row({"email": "not-an-address"})
    with pytest.raises(RowError):
        from_row({"email": "a@b.co", "consent": "maybe"})
    assert from_row({"email": "A@B.co", "name": "Di Ek", "consent": "x"}).first_name == "Di"
    from contacts import display_name

    assert display_name(from_row({"email": "eve@b.co"})) == "eve"


def test_upload_limits():
    with pytest.raises(UploadError):
        decode_upload(b"   ")
    assert fingerprint("a\r\nb\r\n") == fingerprint("a\nb")


def test_spreadsheet_export_with_byte_order_mark_imports():
    data = b"\xef\xbb\xbf" + CSV.encode("utf-8")
    result = MailingList("news").import_file(data)
    assert result.added == 2, result.errors


def test_same_list_saved_by_another_program_is_recognised():
    mailing = MailingList("news")
    mailing.import_file(CSV.encode("utf-8"))
    again = mailing.import_file(b"\xef\xbb\xbf" + CSV.replace("\n", "\r\n").encode("utf-8"))
    assert again.skipped_duplicate_file


def test_parse_reports_ragged_rows():
    from csvparse import CsvError

    with pytest.raises(CsvError, match="line 3"):
        parse("email,name\na@b.co,A\nb@c.co\n")


def test_summary_error_csv_and_export():
    from report import error_csv, export_contacts, summary

    mailing = MailingList("news")
    result = mailing.import_file(CSV.encode("utf-8"))
    assert summary(result, "news") == "news: 2 added, 0 updated, 1 rows skipped"
    assert error_csv(result) == "line,problem\n3,bo@example.org has not opted in\n"
    assert mailing.tagged("EU") == ["ana@example.com", "cy@example.net"]
    assert mailing.unsubscribe(" Cy@example.net ")
    assert export_contacts(mailing).splitlines()[1] == "ana@example.com,Ana,Lima,eu|vip"
