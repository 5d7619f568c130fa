"""Append-only scan logs, one file per lift, rotated every night by the resort's housekeeping job."""
import os


class ScanLog:
    def __init__(self, root):
        self.root = root
        os.makedirs(root, exist_ok=True)
        self._handles = {}

    def path(self, lift_code):
        """Where today's scans for a lift are written."""
        return os.path.join(self.root, f"{lift_code.lower()}.log")

    def _handle(self, lift_code):
        fh = self._handles.get(lift_code)
        if fh is None:
            fh = self._handles[lift_code] = open(self.path(lift_code), "a", encoding="utf-8")
        return fh

    def record(self, lift_code, day, minute, pass_id, outcome):
        fh = self._handle(lift_code)
        fh.write(f"{day.isoformat()} {minute // 60:02d}:{minute % 60:02d} {pass_id} {outcome}\n")
        fh.flush()

    def rotate(self, stamp):
        """Move today's files aside as <lift>.log.<stamp>; new scans go to fresh files."""
        moved = []
        for name in sorted(os.listdir(self.root)):
            if name.endswith(".log"):
                os.rename(os.path.join(self.root, name), os.path.join(self.root, f"{name}.{stamp}"))
                moved.append(f"{name}.{stamp}")
        return moved

    def close(self):
        for fh in self._handles.values():
            fh.close()

    def open_files(self):
        """Lift codes whose log file is open right now."""
        return sorted(code for code, fh in self._handles.items() if not fh.closed)
