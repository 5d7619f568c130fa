"""The admission desk: requests arrive from the emergency department and from scheduled surgery."""
from dataclasses import dataclass

from locking import WardLocks
from wards import NoBedAvailable


@dataclass(frozen=True)
class AdmissionRequest:
    patient: str
    ward: str
    isolation: bool = False
    source: str = "ed"


def _no_hook(stage, request):
    pass


class AdmissionDesk:
    def __init__(self, board, locks=None, hook=_no_hook):
        self.board = board
        self.locks = locks or WardLocks()
        self.hook = hook
        self.log = []

    def admit(self, request):
        with self.locks.for_ward(request.ward):
            free = self.board.free_beds(request.ward, isolation=request.isolation)
            self.hook("checked", request)
            if not free:
                self.log.append(("waitlist", request.patient, request.ward))
                raise NoBedAvailable(f"{request.ward}: no free bed for {request.patient}")
            bed = free[0]
            self.board.assign(bed, request.patient)
        self.log.append(("admit", request.patient, bed))
        return bed

    def discharge(self, patient):
        bed = self.board.bed_of(patient)
        if bed is None:
            raise KeyError(f"{patient} is not admitted")
        ward = next(w.name for w in self.board.wards.values() if bed in w.beds)
        with self.locks.for_ward(ward):
            self.board.release(bed)
        self.log.append(("discharge", patient, bed))
        return bed

    def transfer(self, patient, to_ward):
        bed = self.board.bed_of(patient)
        if bed is None:
            raise KeyError(f"{patient} is not admitted")
        from_ward = next(w.name for w in self.board.wards.values() if bed in w.beds)
        locks = self.locks.ordered(from_ward, to_ward)
        for lock in locks:
            lock.acquire()
        try:
            free = self.board.free_beds(to_ward)
            if not free:
                raise NoBedAvailable(f"{to_ward}: no free bed to transfer {patient}")
            self.board.release(bed)
            self.board.assign(free[0], patient)
        finally:
            for lock in reversed(locks):
                lock.release()
        self.log.append(("transfer", patient, free[0]))
        return free[0]
