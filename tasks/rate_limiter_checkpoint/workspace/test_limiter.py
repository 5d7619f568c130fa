from limiter import RateLimiter

CLIENTS = {"hobbyist": "free", "acme": "pro"}


def burn(limiter, client, now, attempts):
    return sum(limiter.allow(client, now) for _ in range(attempts))


def test_free_plan_allows_its_capacity_then_refuses():
    limiter = RateLimiter(CLIENTS)
    assert burn(limiter, "hobbyist", 0.0, 8) == 5


def test_pro_plan_allows_capacity_plus_burst():
    limiter = RateLimiter(CLIENTS)
    assert burn(limiter, "acme", 0.0, 100) == 70


def test_tokens_refill_over_time():
    limiter = RateLimiter(CLIENTS)
    burn(limiter, "hobbyist", 0.0, 5)
    assert burn(limiter, "hobbyist", 4.0, 5) == 2   # 4 s * 0.5 tokens/s


def test_free_client_stays_limited_across_restore(tmp_path):
    limiter = RateLimiter(CLIENTS)
    burn(limiter, "hobbyist", 0.0, 5)
    limiter.checkpoint(tmp_path / "limits.pkl")
    restored = RateLimiter.restore(tmp_path / "limits.pkl")
    assert burn(restored, "hobbyist", 1.0, 5) == 0


def test_pro_client_stays_limited_across_restore(tmp_path):
    limiter = RateLimiter(CLIENTS)
    burn(limiter, "acme", 0.0, 70)
    limiter.checkpoint(tmp_path / "limits.pkl")
    restored = RateLimiter.restore(tmp_path / "limits.pkl")
    assert burn(restored, "acme", 0.5, 100) == 5   # 0.5 s * 10 tokens/s


def test_pro_client_keeps_full_allowance_after_restore(tmp_path):
    limiter = RateLimiter(CLIENTS)
    burn(limiter, "acme", 0.0, 1)
    limiter.checkpoint(tmp_path / "limits.pkl")
    restored = RateLimiter.restore(tmp_path / "limits.pkl")
    assert burn(restored, "acme", 60.0, 100) == 70
