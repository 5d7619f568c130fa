"""Fits ``y = w*x + b`` by full-batch gradient descent, checkpointing as it goes."""
from checkpoint import load_checkpoint, save_checkpoint
from sgd import MomentumSGD


def mse_and_grad(params, data):
    w, b = params
    n = len(data)
    errors = [(w * x + b) - y for x, y in data]
    loss = sum(e * e for e in errors) / n
    grad_w = 2 * sum(e * x for e, (x, _) in zip(errors, data)) / n
    grad_b = 2 * sum(errors) / n
    return loss, [grad_w, grad_b]


def train(data, steps, params=None, opt=None, checkpoint_dir=None, checkpoint_every=0):
    params = list(params or [0.0, 0.0])
    opt = opt or MomentumSGD(lr=0.05)
    losses = []
    for _ in range(steps):
        loss, grads = mse_and_grad(params, data)
        losses.append(loss)
        params = opt.step(params, grads)
        if checkpoint_dir and checkpoint_every and opt.step_count % checkpoint_every == 0:
            save_checkpoint(checkpoint_dir, params, opt)
    return params, opt, losses


def resume(data, steps, checkpoint_dir):
    params, opt = load_checkpoint(checkpoint_dir)
    return train(data, steps, params, opt)
