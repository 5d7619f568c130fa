from trajectory import Trajectory


class ProgramFormatError(ValueError):
    pass


def dump_programs(programs):
    """One block per arm: 'ARM name' then one 'J a b c' line per waypoint."""
    lines = []
    for name in sorted(programs):
        lines.append(f"ARM {name}")
        for point in programs[name].waypoints:
            lines.append("J " + " ".join(f"{a:g}" for a in point))
        lines.append("END")
    return "\n".join(lines) + "\n"


def load_programs(text):
    programs = {}
    current = None
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("ARM "):
            if current is not None:
                raise ProgramFormatError(f"line {n}: ARM inside ARM")
            current = Trajectory(line[4:].strip())
        elif line == "END":
            if current is None:
                raise ProgramFormatError(f"line {n}: END without ARM")
            programs[current.arm_name] = current
            current = None
        elif line.startswith("J "):
            if current is None:
                raise ProgramFormatError(f"line {n}: waypoint outside ARM")
            try:
                current.add(tuple(float(v) for v in line[2:].split()))
            except ValueError:
                raise ProgramFormatError(f"line {n}: bad angle in {raw!r}") from None
        else:
            raise ProgramFormatError(f"line {n}: unknown statement {raw!r}")
    if current is not None:
        raise ProgramFormatError("missing END")
    return programs
