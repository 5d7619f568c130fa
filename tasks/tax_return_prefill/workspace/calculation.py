"""A simplified tax calculation for the prefilled return (bands in pence)."""
PERSONAL_ALLOWANCE = 1_257_000
BASIC_BAND = 3_770_000
BASIC, HIGHER = 20, 40
SAVINGS_ALLOWANCE = 100_000
DIVIDEND_ALLOWANCE = 50_000
DIVIDEND_BASIC = 875


def tax_due(values):
    income = values["income"]
    relief = values["reliefs"]["pension"] + values["reliefs"]["gift_aid"]
    band_top = BASIC_BAND + relief
    earned = income["wages"] + income["self_employed"]
    savings = max(0, income["interest"] - SAVINGS_ALLOWANCE)
    dividends = max(0, income["dividends"] - DIVIDEND_ALLOWANCE)
    taxable = max(0, earned + savings - PERSONAL_ALLOWANCE)
    basic_part = min(taxable, band_top)
    tax = basic_part * BASIC // 100 + (taxable - basic_part) * HIGHER // 100
    tax += dividends * DIVIDEND_BASIC // 10000
    return tax


def balance(values):
    """Positive: still to pay; negative: refund."""
    return tax_due(values) - values["paid"]["paye_tax"]
