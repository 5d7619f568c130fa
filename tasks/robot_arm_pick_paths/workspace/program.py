"""Export a cycle as the controller's program text."""


def fmt(p):
    """A point as the controller's robtarget position literal."""
    return f"[{p.x:.1f},{p.y:.1f},{p.z:.1f}]"


def to_program(cycle):
    """One PROC per cycle: joint moves for taught paths, linear moves for transfers, gripper calls."""
    lines = [f"PROC {cycle.name.replace('->', '_to_').replace('-', '_')}"]
    for move in cycle.moves:
        if move.kind in ("path", "linear"):
            verb = "MoveJ" if move.kind == "path" else "MoveL"
            lines.extend(f"  {verb} {fmt(p)}" for p in move.points[1:])
        elif move.kind == "grip":
            lines.append("  GripClose")
        elif move.kind == "release":
            lines.append("  GripOpen")
    lines.append("ENDPROC")
    return lines
