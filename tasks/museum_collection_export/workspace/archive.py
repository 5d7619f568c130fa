"""Export files: a versioned envelope around the encoded collection, with a checksum."""
import hashlib
from dataclasses import asdict, fields

import codec
from catalogue import Artwork, Collection, Loan

FORMAT = "collection-export"
VERSION = 2


class ArchiveError(ValueError):
    pass


def _digest(body):
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def export_collection(collection):
    body = codec.dumps({
        "name": collection.name,
        "works": [asdict(w) for w in collection.works.values()],
        "loans": [asdict(l) for l in collection.loans],
    })
    return codec.dumps({"format": FORMAT, "version": VERSION, "sha": _digest(body), "body": body})


def _upgrade_v1(data):
    """Version 1 stored valuations in whole euros under "value"."""
    from decimal import Decimal

    for work in data["works"]:
        work["valuation"] = Decimal(work.pop("value"))
        work.setdefault("currency", "EUR")
    return data


def _build(cls, record):
    names = {f.name for f in fields(cls)}
    unknown = set(record) - names
    if unknown:
        raise ArchiveError(f"{cls.__name__}: unknown fields {sorted(unknown)}")
    return cls(**record)


def import_collection(text):
    envelope = codec.loads(text)
    if envelope.get("format") != FORMAT:
        raise ArchiveError("not a collection export")
    if envelope["sha"] != _digest(envelope["body"]):
        raise ArchiveError("export body does not match its checksum")
    data = codec.loads(envelope["body"])
    if envelope["version"] == 1:
        data = _upgrade_v1(data)
    elif envelope["version"] != VERSION:
        raise ArchiveError(f"unsupported export version {envelope['version']}")
    collection = Collection(data["name"])
    for record in data["works"]:
        collection.add(_build(Artwork, record))
    collection.loans = [_build(Loan, record) for record in data["loans"]]
    return collection
