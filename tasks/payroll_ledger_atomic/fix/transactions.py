"""All-or-nothing blocks of ledger changes.

    with ledger.atomic:
        ledger.transfer(...)
        ledger.transfer(...)

If the block raises, the ledger goes back to how it was when the block started. Blocks may nest:
an inner block that fails undoes only its own changes, unless the error escapes the outer block too.
"""


class Atomic:
    def __init__(self, ledger):
        self._ledger = ledger
        self._snapshots = []

    @property
    def depth(self):
        return len(self._snapshots)

    def __enter__(self):
        self._snapshots.append(self._ledger.snapshot())
        return self

    def __exit__(self, exc_type, exc, tb):
        snapshot = self._snapshots.pop()
        if exc_type is not None:
            self._ledger.restore(snapshot)
        return False
