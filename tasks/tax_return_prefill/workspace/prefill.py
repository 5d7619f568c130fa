"""Pre-filling returns from what employers, banks and pension schemes have already reported."""
from schema import BLANK, SA_FORM


def new_return(utr, name):
    values = dict(BLANK)
    values["taxpayer"]["utr"] = utr
    values["taxpayer"]["name"] = name
    return values


def prefill(values, reports):
    """reports: [(source, field, pence)] where source is employer, bank, dividend or pension."""
    section_of = {"employer": ("income", "wages"), "bank": ("income", "interest"),
                  "dividend": ("income", "dividends"), "pension": ("reliefs", "pension")}
    for source, kind, pence in reports:
        if source == "employer" and kind == "tax":
            values["paid"]["paye_tax"] += pence
            continue
        section, field = section_of[source]
        values[section][field] += pence
    return values


def prepared_return(utr, name, reports):
    values = prefill(new_return(utr, name), reports)
    errors = SA_FORM.validate(values)
    if errors:
        raise ValueError("; ".join(errors))
    return values
