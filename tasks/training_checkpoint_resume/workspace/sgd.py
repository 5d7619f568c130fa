"""SGD with momentum and a per-step exponential learning-rate decay, in plain Python lists."""
from dataclasses import dataclass, field


@dataclass
class MomentumSGD:
    lr: float
    momentum: float = 0.9
    decay: float = 0.97
    step_count: int = 0
    velocity: list = field(default_factory=list)

    def step(self, params: list, grads: list) -> list:
        if not self.velocity:
            self.velocity = [0.0] * len(params)
        self.velocity = [self.momentum * v + g for v, g in zip(self.velocity, grads)]
        updated = [p - self.lr * v for p, v in zip(params, self.velocity)]
        self.lr *= self.decay
        self.step_count += 1
        return updated
