"""Fits ``y = w*x + b`` by full-batch gradient descent, checkpointing as it goes."""
from callbacks import StopTraining
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


def train(data, steps, params=None, opt=None, checkpoint_dir=None, checkpoint_every=0, callbacks=(), manager=None):
    """`steps` more steps from `params`/`opt`; checkpoints every `checkpoint_every` steps to `checkpoint_dir`
    (or through `manager`). A callback raising StopTraining ends the run after that step."""
    params = list(params or [0.0, 0.0])
    opt = opt or MomentumSGD(lr=0.05)
    losses = []
    for _ in range(steps):
        loss, grads = mse_and_grad(params, data)
        losses.append(loss)
        params = opt.step(params, grads)
        if checkpoint_every and opt.step_count % checkpoint_every == 0:
            if manager is not None:
                manager.save(params, opt)
            elif checkpoint_dir:
                save_checkpoint(checkpoint_dir, params, opt)
        try:
            for callback in callbacks:
                callback.on_step(opt.step_count, loss, params)
        except StopTraining as stop:
            opt.stopped = str(stop)
            break
    return params, opt, losses


def evaluate(params, data):
    return mse_and_grad(params, data)[0]


def resume(data, steps, checkpoint_dir):
    params, opt = load_checkpoint(checkpoint_dir)
    return train(data, steps, params, opt)
