"""A store-and-forward relay: envelopes wait in a spool directory until the next delivery run."""
from pathlib import Path

import codec


class Relay:
    def __init__(self, spool: Path):
        self.spool = Path(spool)
        self.quarantine = self.spool / "quarantine"
        self.quarantine.mkdir(parents=True, exist_ok=True)
        self._counter = 0

    def enqueue(self, env) -> Path:
        self._counter += 1
        path = self.spool / f"{self._counter:06d}.msg.json"
        path.write_text(codec.encode(env), encoding="utf-8")
        return path

    def deliver_all(self, transport) -> dict:
        """Hands every intact envelope to ``transport`` and quarantines damaged ones."""
        outcome = {"delivered": 0, "quarantined": []}
        for path in sorted(self.spool.glob("*.msg.json")):
            env = codec.decode(path.read_text(encoding="utf-8"))
            if env.intact():
                transport(env)
                outcome["delivered"] += 1
                path.unlink()
            else:
                path.rename(self.quarantine / path.name)
                outcome["quarantined"].append(path.name)
        return outcome
