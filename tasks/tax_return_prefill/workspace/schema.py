"""The self-assessment form and the blank values every return starts from."""
from vendor.formkit import Field, Form, Section

SA_FORM = Form("SA100", [
    Section("taxpayer", [Field("utr", "text", "UTR", required=True), Field("name", "text", "Name", required=True)]),
    Section("income", [
        Field("wages", "money", "Employment income"),
        Field("interest", "money", "Bank interest"),
        Field("dividends", "money", "Dividends"),
        Field("self_employed", "money", "Self-employment profit"),
    ]),
    Section("reliefs", [
        Field("pension", "money", "Pension contributions"),
        Field("gift_aid", "money", "Gift Aid payments"),
        Field("marriage_allowance", "flag", "Marriage allowance claimed"),
    ]),
    Section("paid", [Field("paye_tax", "money", "Tax taken through PAYE")]),
])

BLANK = {
    "taxpayer": {"utr": None, "name": None},
    "income": {"wages": 0, "interest": 0, "dividends": 0, "self_employed": 0},
    "reliefs": {"pension": 0, "gift_aid": 0, "marriage_allowance": False},
    "paid": {"paye_tax": 0},
}
