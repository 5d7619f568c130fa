import pytest

from calculation import balance, tax_due
from filing import Filing
from prefill import new_return, prepared_return
from schema import SA_FORM

ANA = [("employer", "pay", 4_200_000), ("employer", "tax", 590_000), ("bank", "interest", 180_000)]
BEN = [("employer", "pay", 2_800_000), ("employer", "tax", 310_000)]


def test_blank_return_needs_a_name():
    values = new_return("1234567890", None)
    assert SA_FORM.validate(values) == ["taxpayer.name is required"]


def test_prefill_from_reports():
    values = prepared_return("1111111111", "Ana", ANA)
    assert values["income"]["wages"] == 4_200_000
    assert values["income"]["interest"] == 180_000
    assert values["paid"]["paye_tax"] == 590_000


def test_each_taxpayer_gets_their_own_return():
    ana = prepared_return("1111111111", "Ana", ANA)
    ben = prepared_return("2222222222", "Ben", BEN)
    assert ben["taxpayer"]["name"] == "Ben" and ana["taxpayer"]["name"] == "Ana"
    assert ben["income"]["interest"] == 0
    assert ben["income"]["wages"] == 2_800_000


def test_tax_for_ben():
    ben = prepared_return("2222222222", "Ben", BEN)
    # (28,000 - 12,570) at 20%
    assert tax_due(ben) == 308_600
    assert balance(ben) == -1_400


def test_rendered_return():
    lines = SA_FORM.render(prepared_return("3333333333", "Cy", [("dividend", "div", 90_000)]))
    assert "  Dividends: 900.00" in lines
    assert "  Employment income: 0.00" in lines


def test_unknown_fields_are_reported():
    values = new_return("1", "x")
    values["income"]["lottery"] = 5
    assert "income.lottery: not a field of this form" in SA_FORM.validate(values)
    del values["income"]["lottery"]
    with pytest.raises(KeyError):
        SA_FORM.section("capital_gains")


def test_amending_a_filed_return():
    filing = Filing("4444444444")
    filing.submit(prepared_return("4444444444", "Di", [("employer", "pay", 3_000_000), ("employer", "tax", 350_000)]))
    changed, owed = filing.amend({("reliefs", "gift_aid"): 100_000, ("income", "wages"): 3_000_000})
    assert changed == ["reliefs.gift_aid"]
    assert owed == -1_400
    assert filing.versions[0]["reliefs"]["gift_aid"] == 0
