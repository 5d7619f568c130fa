"""Stop and wait strategies. Each is a callable taking the RetryState."""


class stop_after_attempt:
    def __init__(self, attempts):
        self.attempts = attempts

    def __call__(self, state):
        return state.attempt_number >= self.attempts


class stop_after_delay:
    def __init__(self, seconds):
        self.seconds = seconds

    def __call__(self, state):
        return state.elapsed >= self.seconds


class wait_fixed:
    def __init__(self, seconds):
        self.seconds = seconds

    def __call__(self, state):
        return self.seconds


class wait_exponential:
    """multiplier * 2 ** (attempt - 1), clamped to [min, max]."""

    def __init__(self, multiplier=1.0, min=0.0, max=60.0):
        self.multiplier = multiplier
        self.min = min
        self.max = max

    def __call__(self, state):
        value = self.multiplier * 2 ** (state.attempt_number - 1)
        return max(self.min, min(self.max, value))
