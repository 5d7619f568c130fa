"""Which patients to remind about their check-up, and how to reach them."""
from datetime import date


def channel_for(patient) -> str:
    if patient.mobile_phone:
        return "sms"
    if patient.email:
        return "email"
    return "letter"


def due_reminders(patients, today: date) -> list:
    """``(patient_id, channel)`` for every patient whose recall date has come."""
    due = []
    for p in sorted(patients, key=lambda p: p.patient_id):
        when = p.recall_due_on()
        if when is not None and when <= today:
            due.append((p.patient_id, channel_for(p)))
    return due
