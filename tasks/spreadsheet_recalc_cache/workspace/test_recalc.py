import pytest

from budget import budget_sheet, summary
from recalc import Calculator
from vendor.formulakit import expand_range
from workbook import CycleError, Sheet


def test_ranges_expand_row_major():
    assert expand_range("A1", "B2") == ["A1", "B1", "A2", "B2"]


def test_budget_summary():
    assert summary(budget_sheet()) == {"income": 3650.0, "costs": 1620.0, "left": 2030.0, "rate": 55.6, "year": 24360.0}


def test_values_are_cached():
    calc = budget_sheet()
    summary(calc)
    first = calc.evaluations
    summary(calc)
    assert calc.evaluations == first


def test_editing_an_input_updates_direct_formula():
    calc = budget_sheet()
    summary(calc)
    calc.edit("B5", 1350)
    assert calc.value("B8") == 1770.0


def test_editing_an_input_updates_every_dependent():
    calc = budget_sheet()
    summary(calc)
    calc.edit("B1", 3500)
    assert summary(calc) == {"income": 3950.0, "costs": 1620.0, "left": 2330.0, "rate": 59.0, "year": 27960.0}


def test_replacing_a_formula():
    calc = budget_sheet()
    summary(calc)
    calc.edit("B8", "=SUM(B5:B7)+100")
    assert calc.value("B12") == 23160.0


def test_cycles_are_refused():
    sheet = Sheet("s")
    sheet.set("A1", "=B1+1")
    with pytest.raises(CycleError):
        sheet.set("B1", "=A1*2")
    assert "B1" not in sheet.raw


def test_error_values():
    calc = Calculator(Sheet("s"))
    calc.edit("A1", "=1/A2")
    assert calc.value("A1").startswith("#ERR")
