import ipaddress

from records import RecordError, normalize


class HostsFile:
    """Static overrides in /etc/hosts style: '10.0.0.5  build.internal ci'"""

    def __init__(self, text=""):
        self.entries = {}
        for n, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) < 2:
                raise RecordError(f"hosts line {n}: {raw!r}")
            address = ipaddress.ip_address(parts[0])
            rtype = "A" if address.version == 4 else "AAAA"
            for name in parts[1:]:
                self.entries.setdefault((normalize(name), rtype), []).append(str(address))

    def lookup(self, name, rtype):
        return self.entries.get((normalize(name), rtype))

    def names(self):
        return sorted({name for name, _ in self.entries})
