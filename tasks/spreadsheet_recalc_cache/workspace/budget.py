"""The household budget template built on a sheet: income, costs, savings rate."""
from recalc import Calculator
from workbook import Sheet

LAYOUT = {
    "B1": 3200,          # salary
    "B2": 450,           # side income
    "B3": "=B1+B2",      # income
    "B5": 1200,          # rent
    "B6": 300,           # food
    "B7": 120,           # transport
    "B8": "=SUM(B5:B7)", # costs
    "B10": "=B3-B8",     # left over
    "B11": "=B10/B3*100",  # savings rate %
    "B12": "=B10*12",    # per year
}


def budget_sheet():
    sheet = Sheet("budget")
    for ref, content in LAYOUT.items():
        sheet.set(ref, content)
    return Calculator(sheet)


def summary(calc):
    return {
        "income": calc.value("B3"),
        "costs": calc.value("B8"),
        "left": calc.value("B10"),
        "rate": round(calc.value("B11"), 1),
        "year": calc.value("B12"),
    }
