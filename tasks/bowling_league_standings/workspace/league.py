"""League nights: handicaps from running averages, points per game, and the standings."""
from dataclasses import dataclass, field

from notation import parse_game
from scoring import game_score

HANDICAP_BASIS = 220
HANDICAP_PERCENT = 90


@dataclass
class Bowler:
    name: str
    team: str
    games: list = field(default_factory=list)
    established_average: int = None

    def average(self):
        if self.games:
            return sum(self.games) // len(self.games)
        return self.established_average or 0

    def high_game(self):
        return max(self.games, default=0)

    def last_series(self):
        """Total of the most recent three games (a league night)."""
        return sum(self.games[-3:]) if len(self.games) >= 3 else None

    def handicap(self):
        return max(0, (HANDICAP_BASIS - self.average()) * HANDICAP_PERCENT // 100)


@dataclass
class League:
    name: str
    bowlers: dict = field(default_factory=dict)
    points: dict = field(default_factory=dict)

    def add(self, name, team, established_average=None):
        self.bowlers[name] = Bowler(name, team, established_average=established_average)
        self.points.setdefault(team, 0)

    def team(self, team):
        return [b for b in self.bowlers.values() if b.team == team]

    def record_night(self, team_a, team_b, sheets):
        """sheets: {bowler: [three score sheets]}. One point per game won on handicap, one for the series."""
        handicaps = {name: self.bowlers[name].handicap() for name in sheets}
        scratch = {name: [game_score(parse_game(s)) for s in games] for name, games in sheets.items()}
        totals = {team_a: [0, 0, 0], team_b: [0, 0, 0]}
        for name, scores in scratch.items():
            team = self.bowlers[name].team
            for g, score in enumerate(scores):
                totals[team][g] += score + handicaps[name]
        for g in range(3):
            self._award(team_a, team_b, totals[team_a][g], totals[team_b][g])
        self._award(team_a, team_b, sum(totals[team_a]), sum(totals[team_b]))
        for name, scores in scratch.items():
            self.bowlers[name].games.extend(scores)
        return totals

    def _award(self, a, b, score_a, score_b):
        if score_a > score_b:
            self.points[a] += 1
        elif score_b > score_a:
            self.points[b] += 1
        else:
            self.points[a] += 0.5
            self.points[b] += 0.5

    def standings(self):
        return sorted(self.points.items(), key=lambda kv: (-kv[1], kv[0]))
