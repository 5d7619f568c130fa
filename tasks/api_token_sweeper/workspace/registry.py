"""Token registry: issues, checks and sweeps tokens, and keeps the token file current."""
from datetime import timedelta
from pathlib import Path

from token_file import dump_tokens, read_tokens
from tokens import UtcClock, issue


class TokenRegistry:
    def __init__(self, path: Path, clock=None):
        self.path = Path(path)
        self.clock = clock or UtcClock()
        self._tokens = {t.token_id: t for t in read_tokens(self.path)}

    def issue(self, user: str, scopes, minutes: int = 60):
        token = issue(user, scopes, timedelta(minutes=minutes), self.clock)
        self._tokens[token.token_id] = token
        dump_tokens(self._tokens.values(), self.path)
        return token

    def authorize(self, token_id: str, scope: str) -> bool:
        token = self._tokens.get(token_id)
        return bool(token and scope in token.scopes and token.is_live(self.clock.now()))

    def sweep(self) -> int:
        """Drops expired tokens; returns how many went."""
        now = self.clock.now()
        expired = [tid for tid, t in self._tokens.items() if not t.is_live(now)]
        for tid in expired:
            del self._tokens[tid]
        if expired:
            dump_tokens(self._tokens.values(), self.path)
        return len(expired)

    def __len__(self):
        return len(self._tokens)
