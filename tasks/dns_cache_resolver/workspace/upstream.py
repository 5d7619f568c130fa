import threading

from records import Record, normalize, parse_zone_line


class NXDomain(LookupError):
    pass


class ZoneUpstream:
    """Answers from zone text; can be held to simulate a slow authoritative server."""

    def __init__(self, zone_text):
        self.records = [parse_zone_line(l) for l in zone_text.strip().splitlines() if l.strip()]
        self.calls = []
        self._lock = threading.Lock()
        self.release = threading.Event()
        self.release.set()
        self.started = threading.Event()

    def query(self, name, rtype):
        name = normalize(name)
        with self._lock:
            self.calls.append((name, rtype))
        self.started.set()
        if not self.release.wait(timeout=5):
            raise TimeoutError("upstream held too long")
        answers = [r for r in self.records if r.name == name and r.rtype == rtype]
        if not answers:
            cname = [r for r in self.records if r.name == name and r.rtype == "CNAME"]
            if cname:
                target = self.query(cname[0].value, rtype)
                return [Record(name, "CNAME", cname[0].value, cname[0].ttl)] + target
            raise NXDomain(name)
        return answers
