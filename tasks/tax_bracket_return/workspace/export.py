import json
from decimal import Decimal

from returns import TaxReturn

SCHEMA_VERSION = 2


def to_dict(r: TaxReturn):
    return {
        "schema": SCHEMA_VERSION,
        "taxpayer": r.taxpayer,
        "year": r.year,
        "status": r.filing_status,
        "wages": str(r.wages),
        "interest": str(r.interest),
        "itemized": {k: str(v) for k, v in sorted(r.itemized.items())},
        "children": r.children,
        "withheld": str(r.withheld),
    }


def from_dict(d):
    if d.get("schema") != SCHEMA_VERSION:
        raise ValueError(f"unsupported schema {d.get('schema')!r}")
    return TaxReturn(
        taxpayer=d["taxpayer"],
        year=int(d["year"]),
        filing_status=d["filing_status"],
        wages=Decimal(d["wages"]),
        interest=Decimal(d["interest"]),
        itemized={k: Decimal(v) for k, v in d["itemized"].items()},
        children=int(d["children"]),
        withheld=Decimal(d["withheld"]),
    )


def dumps(r):
    return json.dumps(to_dict(r), sort_keys=True, indent=1)


def loads(text):
    return from_dict(json.loads(text))
