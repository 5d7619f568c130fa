import heapq
import itertools

from patients import Patient, TriageError


class TriageQueue:
    def __init__(self):
        self._heap = []
        self._entries = {}
        self._seq = itertools.count()

    def __len__(self):
        return len(self._entries)

    def add(self, patient: Patient):
        if patient.pid in self._entries:
            raise TriageError(f"{patient.pid} already waiting")
        entry = [patient.level, patient.arrived_min, next(self._seq), patient]
        self._entries[patient.pid] = entry
        heapq.heappush(self._heap, entry)

    def reassess(self, pid, level):
        entry = self._entries.get(pid)
        if entry is None:
            raise TriageError(f"{pid} is not waiting")
        patient = entry[3]
        patient.level = level
        entry[0] = level
        return patient

    def peek(self):
        if not self._heap:
            return None
        return self._heap[0][3]

    def next_patient(self):
        if not self._heap:
            return None
        entry = heapq.heappop(self._heap)
        del self._entries[entry[3].pid]
        return entry[3]

    def leave(self, pid):
        entry = self._entries.pop(pid, None)
        if entry is None:
            return False
        self._heap.remove(entry)
        heapq.heapify(self._heap)
        return True

    def waiting(self):
        return [e[3].pid for e in sorted(self._heap)]
