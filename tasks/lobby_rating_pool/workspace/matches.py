"""Match results as the game servers report them."""
from dataclasses import dataclass

RESULTS = {"white": (1, 0), "black": (0, 1), "draw": (0.5, 0.5)}


class InvalidMatch(ValueError):
    pass


@dataclass(frozen=True)
class Match:
    match_id: str
    white: str
    black: str
    result: str

    def scores(self):
        return RESULTS[self.result]


def parse_match(record):
    """{'id': 'm1', 'white': 'ana', 'black': 'ben', 'result': 'white'} from a game server."""
    try:
        match = Match(str(record["id"]), record["white"], record["black"], record["result"])
    except KeyError as exc:
        raise InvalidMatch(f"match record lacks {exc.args[0]!r}") from None
    if match.white == match.black:
        raise InvalidMatch(f"{match.match_id}: a player cannot play themselves")
    if match.result not in RESULTS:
        raise InvalidMatch(f"{match.match_id}: unknown result {match.result!r}")
    return match
