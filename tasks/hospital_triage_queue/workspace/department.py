from patients import Patient, assess
from triage_queue import TriageQueue


class EmergencyDepartment:
    def __init__(self, beds):
        self.queue = TriageQueue()
        self.beds = {b: None for b in beds}
        self.log = []
        self._count = 0

    def arrive(self, name, vitals, now_min, complaints=()):
        self._count += 1
        pid = f"P{self._count:03d}"
        level = assess(vitals)
        self.queue.add(Patient(pid, name, level, now_min, list(complaints)))
        self.log.append((now_min, "arrive", pid, level))
        return pid

    def deteriorated(self, pid, vitals, now_min):
        level = assess(vitals)
        self.queue.reassess(pid, level)
        self.log.append((now_min, "reassess", pid, level))
        return level

    def free_beds(self):
        return sorted(b for b, p in self.beds.items() if p is None)

    def fill_beds(self, now_min):
        placed = []
        for bed in self.free_beds():
            patient = self.queue.next_patient()
            if patient is None:
                break
            self.beds[bed] = patient
            placed.append((bed, patient.pid))
            self.log.append((now_min, "bed", patient.pid, bed))
        return placed

    def discharge(self, bed, now_min):
        patient = self.beds[bed]
        self.beds[bed] = None
        if patient is not None:
            self.log.append((now_min, "discharge", patient.pid, bed))
        return patient
