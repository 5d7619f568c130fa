import json
import re
from datetime import timedelta

from timing import Runner, TimingError

_DURATION = re.compile(r"^(\d+):(\d{2}):(\d{2})(?:\.(\d{3}))?$")


def encode_duration(td):
    total_ms = td // timedelta(milliseconds=1)
    total, ms = divmod(total_ms, 1000)
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    text = f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{text}.{ms:03d}" if ms else text


def decode_duration(text):
    m = _DURATION.match(text)
    if not m:
        raise TimingError(f"bad duration {text!r}")
    h, mnt, s, ms = m.groups()
    return timedelta(hours=int(h), minutes=int(mnt), seconds=int(s), milliseconds=int(ms or 0))


def runner_to_dict(r):
    return {
        "bib": r.bib,
        "name": r.name,
        "category": r.category,
        "splits": {str(km): encode_duration(t) for km, t in sorted(r.splits.items())},
        "finish": encode_duration(r.finish) if r.finish is not None else None,
    }


def runner_from_dict(d):
    r = Runner(int(d["bib"]), d["name"], d["category"])
    r.splits = {float(km): decode_duration(t) for km, t in d["splits"].items()}
    r.finish = decode_duration(d["finish"]) if d["finish"] is not None else None
    return r


def dumps(runners):
    return json.dumps([runner_to_dict(r) for r in runners], indent=1)


def loads(text):
    return [runner_from_dict(d) for d in json.loads(text)]
