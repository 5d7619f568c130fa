from datetime import datetime, timedelta

from registry import TokenRegistry


class FakeClock:
    def __init__(self):
        self.current = datetime(2024, 5, 1, 12, 0, 0)

    def now(self):
        return self.current

    def advance(self, minutes):
        self.current += timedelta(minutes=minutes)


def test_fresh_token_authorizes_its_scope(tmp_path):
    registry = TokenRegistry(tmp_path / "tokens.jsonl", FakeClock())
    token = registry.issue("maya", ["read"])
    assert registry.authorize(token.token_id, "read")
    assert not registry.authorize(token.token_id, "write")


def test_token_stops_working_after_expiry(tmp_path):
    clock = FakeClock()
    registry = TokenRegistry(tmp_path / "tokens.jsonl", clock)
    token = registry.issue("maya", ["read"], minutes=30)
    clock.advance(31)
    assert not registry.authorize(token.token_id, "read")


def test_sweep_drops_only_expired_tokens(tmp_path):
    clock = FakeClock()
    registry = TokenRegistry(tmp_path / "tokens.jsonl", clock)
    registry.issue("maya", ["read"], minutes=10)
    registry.issue("omar", ["read"], minutes=120)
    clock.advance(60)
    assert registry.sweep() == 1
    assert len(registry) == 1


def test_token_file_has_one_line_per_token(tmp_path):
    registry = TokenRegistry(tmp_path / "tokens.jsonl", FakeClock())
    registry.issue("maya", ["read"])
    registry.issue("omar", ["admin"])
    assert len((tmp_path / "tokens.jsonl").read_text().splitlines()) == 2


def test_other_node_authorizes_shared_token(tmp_path):
    clock = FakeClock()
    token = TokenRegistry(tmp_path / "tokens.jsonl", clock).issue("maya", ["read"])
    other_node = TokenRegistry(tmp_path / "tokens.jsonl", clock)
    assert other_node.authorize(token.token_id, "read")


def test_sweep_after_restart(tmp_path):
    clock = FakeClock()
    first = TokenRegistry(tmp_path / "tokens.jsonl", clock)
    first.issue("maya", ["read"], minutes=10)
    first.issue("omar", ["read"], minutes=120)
    clock.advance(60)
    restarted = TokenRegistry(tmp_path / "tokens.jsonl", clock)
    assert restarted.sweep() == 1
    assert len(TokenRegistry(tmp_path / "tokens.jsonl", clock)) == 1
