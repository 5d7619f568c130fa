"""Persists issued tokens as JSON lines so that API nodes share them across restarts."""
import json
from datetime import datetime
from pathlib import Path

from tokens import Token


def dump_tokens(tokens, path: Path) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for t in tokens:
            record = {
                "id": t.token_id,
                "user": t.user,
                "scopes": list(t.scopes),
                "expires_at": t.expires_at.isoformat() + "Z",
            }
            out.write(json.dumps(record) + "\n")


def read_tokens(path: Path) -> list:
    path = Path(path)
    if not path.exists():
        return []
    tokens = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        expires = datetime.fromisoformat(record["expires_at"])
        tokens.append(Token(record["id"], record["user"], tuple(record["scopes"]), expires))
    return tokens
