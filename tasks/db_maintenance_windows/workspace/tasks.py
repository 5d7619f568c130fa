"""The maintenance operations themselves; here they only record that they ran."""


class MaintenanceLog:
    def __init__(self):
        self.entries = []

    def operation(self, kind, database):
        if kind not in ("vacuum", "reindex", "backup"):
            raise ValueError(f"unknown maintenance operation {kind!r}")

        def run():
            self.entries.append(f"{kind} {database}")

        return run
