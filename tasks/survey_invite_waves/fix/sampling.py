"""Audit samples: reviewers hand-check a few responses per wave, and must be able to redraw the same set."""
import random


class AuditSampler:
    def __init__(self, seed: int, size: int):
        if size < 1:
            raise ValueError("sample size must be at least 1")
        self.seed = seed
        self.size = size

    def draw(self, response_ids: list[str]) -> list[str]:
        """The same ids and seed always give the same sample."""
        rng = random.Random(self.seed)  # private generator: reseeding the module's would repeat invite tokens
        ordered = sorted(response_ids)
        return rng.sample(ordered, min(self.size, len(ordered)))
