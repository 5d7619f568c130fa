"""A weekly on-call rotation for one team."""


class Rotation:
    def __init__(self, team: str, members: list[str]):
        if len(set(members)) != len(members) or not members:
            raise ValueError("a rotation needs distinct members")
        self.team = team
        self._order = list(members)
        self.on_leave: set[str] = set()

    def members(self) -> list[str]:
        """Members in rotation order, starting with whoever is on call now."""
        return list(self._order)

    def current(self) -> str:
        return self._order[0]

    def advance(self) -> str:
        """Weekly handoff: the next member takes over. Returns the new on-call."""
        self._order.append(self._order.pop(0))
        return self.current()

    def add(self, member: str) -> None:
        if member in self._order:
            raise ValueError(f"{member} is already in the {self.team} rotation")
        self._order.append(member)
