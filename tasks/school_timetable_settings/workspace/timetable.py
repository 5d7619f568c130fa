from dataclasses import dataclass

from settings import settings_for


class TimetableError(ValueError):
    pass


def to_minutes(hhmm):
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def to_hhmm(minutes):
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


@dataclass(frozen=True)
class Slot:
    period: int
    start: str
    end: str


def day_slots(school):
    cfg = settings_for(school)
    t = to_minutes(cfg["day"]["start"])
    length = cfg["day"]["period_minutes"]
    breaks = {int(k): v for k, v in cfg["breaks"]["minutes"].items()}
    slots = []
    for period in range(1, cfg["day"]["periods"] + 1):
        slots.append(Slot(period, to_hhmm(t), to_hhmm(t + length)))
        t += length
        if period in cfg["breaks"]["after"]:
            t += breaks.get(period, 10)
    return slots


def room_for(school, subject, size, rooms):
    cfg = settings_for(school)
    if size > cfg["rooms"]["max_class"]:
        raise TimetableError(f"class of {size} exceeds the limit of {cfg['rooms']['max_class']}")
    wanted = "lab" if subject in cfg["rooms"]["lab_subjects"] else "classroom"
    for name, kind in sorted(rooms.items()):
        if kind == wanted:
            return name
    raise TimetableError(f"no {wanted} free for {subject}")


def end_of_day(school):
    return day_slots(school)[-1].end


def free_periods(school, lessons, weekday):
    taken = {period for (day, period) in lessons if day == weekday}
    return [s.period for s in day_slots(school) if s.period not in taken]


def minutes_taught(school, lessons):
    length = settings_for(school)["day"]["period_minutes"]
    return len(lessons) * length
