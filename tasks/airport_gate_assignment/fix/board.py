"""The gate board: which flight is on which gate, shared by every dispatcher desk."""
import threading

from flights import SIZE_ORDER


class NoGateAvailable(Exception):
    pass


class GateBoard:
    def __init__(self, terminal, stand_check=None):
        self.terminal = terminal
        self.stand_check = stand_check
        self.assignments = {}
        self._lock = threading.Lock()
        self.history = []

    def _busy(self, gate_name, flight):
        for other, gate in self.assignments.items():
            if gate == gate_name and other.overlaps(flight):
                return True
        return False

    def _blocked_by_neighbour(self, gate, flight):
        if SIZE_ORDER.index(flight.size) < SIZE_ORDER.index("E"):
            wide_next_door = any(
                self.assignments.get(other) in gate.neighbours and SIZE_ORDER.index(other.size) >= SIZE_ORDER.index("E")
                for other in self.assignments
                if other.overlaps(flight)
            )
            return wide_next_door
        return any(self._busy(n, flight) for n in gate.neighbours)

    def _free_gate_locked(self, flight):
        for gate in self.terminal.candidates(flight):
            if not self._busy(gate.name, flight) and not self._blocked_by_neighbour(gate, flight):
                return gate
        return None

    def free_gate_for(self, flight):
        with self._lock:
            return self._free_gate_locked(flight)

    def assign(self, flight):
        with self._lock:
            gate = self._free_gate_locked(flight)
            if gate is None:
                raise NoGateAvailable(f"no gate for {flight.number} ({flight.aircraft})")
            self.assignments[flight] = gate.name
            self.history.append(("assign", flight.number, gate.name))
        if self.stand_check is not None:
            try:
                self.stand_check(flight, gate)
            except BaseException:
                with self._lock:
                    self.assignments.pop(flight, None)
                    self.history.append(("release", flight.number, gate.name))
                raise
        return gate.name

    def release(self, flight):
        with self._lock:
            gate = self.assignments.pop(flight)
            self.history.append(("release", flight.number, gate))
            return gate

    def by_gate(self):
        with self._lock:
            out = {}
            for flight, gate in self.assignments.items():
                out.setdefault(gate, []).append(flight.number)
            return {g: sorted(v) for g, v in sorted(out.items())}
