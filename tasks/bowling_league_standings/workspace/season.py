"""The season: who bowls whom each week, and the table printed for the noticeboard."""


def round_robin(teams):
    """Circle method: every pair meets once; with an odd number of teams one team sits out each week."""
    teams = list(teams)
    if len(teams) < 2:
        raise ValueError("need at least two teams")
    if len(teams) % 2:
        teams.append(None)
    n = len(teams)
    weeks = []
    for _ in range(n - 1):
        week = []
        for i in range(n // 2):
            a, b = teams[i], teams[n - 1 - i]
            if a is not None and b is not None:
                week.append((a, b))
        weeks.append(week)
        teams = [teams[0], teams[-1]] + teams[1:-1]
    return weeks


def season_table(league):
    """One line per team: position, points and each member's average."""
    lines = []
    for position, (team, points) in enumerate(league.standings(), 1):
        members = ", ".join(f"{b.name} {b.average()}" for b in sorted(league.team(team), key=lambda b: b.name))
        shown = int(points) if points == int(points) else points
        lines.append(f"{position}. {team} {shown} pts ({members})")
    return lines
