from patients import LEVELS, TARGET_MINUTES


def waiting_board(dept, now_min):
    rows = []
    for pid in dept.queue.waiting():
        entry = dept.queue._entries[pid]
        p = entry[3]
        waited = now_min - p.arrived_min
        flag = "OVERDUE" if p.overdue(now_min) else ""
        rows.append(f"{p.pid} L{p.level} {LEVELS[p.level]:<13} {waited:>3} min {flag}".rstrip())
    return rows


def breaches(dept, now_min):
    out = []
    for pid in dept.queue.waiting():
        p = dept.queue._entries[pid][3]
        if p.overdue(now_min):
            out.append((pid, now_min - p.arrived_min - TARGET_MINUTES[p.level]))
    return out


def occupancy(dept):
    used = sum(1 for p in dept.beds.values() if p is not None)
    return f"{used}/{len(dept.beds)} beds, {len(dept.queue)} waiting"


def longest_wait(dept, now_min):
    best = None
    for pid in dept.queue.waiting():
        p = dept.queue._entries[pid][3]
        waited = now_min - p.arrived_min
        if best is None or waited > best[1]:
            best = (pid, waited)
    return best
