"""Ledger export and import: the JSON files the accountants' tools and our archive exchange."""
from decimal import Decimal

from ledger import Ledger, Posting, Transaction
from vendor.jsonkit import default_codec

FORMAT = "ledger-export/2"

codec = default_codec()
codec.register(Decimal, "decimal", str, Decimal)


class FormatError(ValueError):
    pass


def export_ledger(ledger):
    data = {
        "format": FORMAT,
        "name": ledger.name,
        "transactions": [
            {
                "id": t.txn_id,
                "booked_on": t.booked_on,
                "memo": t.memo,
                "tags": t.tags,
                "postings": [{"account": p.account, "amount": p.amount} for p in t.postings],
            }
            for t in ledger.transactions
        ],
    }
    return codec.dumps(data, indent=1)


def import_ledger(text):
    data = codec.loads(text)
    if data.get("format") != FORMAT:
        raise FormatError(f"expected format {FORMAT}, got {data.get('format')!r}")
    ledger = Ledger(data["name"])
    for raw in data["transactions"]:
        postings = tuple(Posting(p["account"], p["amount"]) for p in raw["postings"])
        ledger.transactions.append(Transaction(raw["id"], raw["booked_on"], raw["memo"], postings, raw["tags"]))
    return ledger
