from datetime import date

from audit import AuditTrail
from cabinet import DispensingCabinet
from labels import label_lines
from prescriptions import Prescription, PrescriptionError, interacts


class RefillService:
    def __init__(self, cabinet: DispensingCabinet, audit: AuditTrail | None = None):
        self.cabinet = cabinet
        self.audit = audit or AuditTrail()
        self.prescriptions = {}
        self.active_drugs = {}
        self.labels = {}

    def register(self, rx: Prescription):
        if rx.rx_id in self.prescriptions:
            raise PrescriptionError(f"duplicate {rx.rx_id}")
        self.prescriptions[rx.rx_id] = rx

    def refill(self, rx_id, pharmacist, today: date):
        rx = self.prescriptions[rx_id]
        rx.check_refill(today)
        with self.audit.session(pharmacist, rx_id) as note:
            clashes = interacts(rx.drug, self.active_drugs.get(rx.patient, set()) - {rx.drug})
            if clashes:
                note("interaction:" + ",".join(clashes))
                raise PrescriptionError(f"{rx_id}: interacts with {', '.join(clashes)}")
            with self.cabinet.drawer(rx.drug, pharmacist) as drawer:
                drawer.take(rx.units)
                if rx.controlled:
                    note(f"controlled:{rx.units}")
            rx.record_fill(today)
            self.active_drugs.setdefault(rx.patient, set()).add(rx.drug)
            note("filled")
        self.labels[rx_id] = label_lines(rx, today, pharmacist)
        return {"rx": rx_id, "units": rx.units, "refills_left": rx.refills_left}

    def restock(self, drug, units, pharmacist):
        with self.cabinet.drawer(drug, pharmacist):
            self.cabinet.stock[drug] += units
        return self.cabinet.remaining(drug)

    def queue_report(self, today: date):
        due = []
        for rx in sorted(self.prescriptions.values(), key=lambda r: r.rx_id):
            eligible = rx.next_eligible()
            if rx.refills_left and (eligible is None or eligible <= today):
                due.append(rx.rx_id)
        return due
