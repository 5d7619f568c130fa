"""The long-running learner process: holds the model, answers typed requests as JSON lines over stdin/stdout.

Transport. One JSON object per line. stdout carries protocol messages only (logs go to stderr). At start-up the
process writes one `ReadyMessage`; then, for every request line (`protocol.Request`), exactly one response line with
the same `request_id` (`TrainStepResponse`, `SftEpochResponse`, ..., or `ErrorResponse`), preceded for a long request
(an SFT epoch) by `SftProgress` lines with that id. Requests are handled one at a time, in order.

    python -m debugrl_native.learner.service --config learner.json           # one process (CPU or one GPU)
    torchrun --nproc-per-node 2 -m debugrl_native.learner.service --config learner.json   # FSDP over two ranks

Under torchrun only rank 0 reads stdin and writes stdout; it broadcasts each request to the other ranks so every
rank runs the same train step (their microbatches differ; see packing.py).

Checkpoints. After every update the service writes `trainer_state.pt` (optimizer state, KL coefficient) beside the
adapter, so `--adapter <dir>` resumes the whole learner state, not only its weights: a restarted service continues
from the last committed step as if it had never stopped.

Errors. A line that is not a valid request, or a batch the learner cannot train on (a token outside the vocabulary,
a sample from a future policy version), is answered with `error_kind="invalid_request"`: resending it will not help.
Anything else is `internal`; the process keeps serving unless the failure left the ranks out of step.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from pathlib import Path
from typing import IO

from pydantic import TypeAdapter, ValidationError

from .config import LearnerConfig
from .protocol import (
    ErrorResponse,
    FileBatch,
    ReadyMessage,
    Request,
    SaveAdapterRequest,
    SaveAdapterResponse,
    ScoreRequest,
    ScoreResponse,
    SftEpochRequest,
    SftEpochResponse,
    SftEvalRequest,
    SftEvalResponse,
    SftProgress,
    SftStepRequest,
    SftStepResponse,
    ShutdownRequest,
    ShutdownResponse,
    StatusRequest,
    StatusResponse,
    TrainBatch,
    TrainStepRequest,
    TrainStepResponse,
)

_REQUEST = TypeAdapter(Request)
TRAINER_STATE = "trainer_state.pt"


def save_trainer_state(learner, folder: Path) -> None:
    import torch

    tmp = folder / (TRAINER_STATE + ".tmp")
    torch.save({"optimizer": learner.optimizer.state_dict(), "kl_coef": learner.kl_coef, "version": learner.version}, tmp)
    tmp.replace(folder / TRAINER_STATE)  # atomic: a crash never leaves half a checkpoint


def load_trainer_state(learner, folder: Path) -> bool:
    """Restore the optimizer and KL controller saved with an adapter; False when the folder has none (an old adapter)."""
    import torch

    path = folder / TRAINER_STATE
    if not path.is_file():
        return False
    state = torch.load(path, map_location="cpu", weights_only=True)
    if int(state["version"]) != learner.version:
        raise ValueError(f"{path} is for policy version {state['version']}, the adapter for {learner.version}")
    learner.optimizer.load_state_dict(state["optimizer"])
    learner.kl_coef = float(state["kl_coef"])
    return True


def score(learner, req: ScoreRequest) -> ScoreResponse:
    """log pi(completion | prompt) per completion token under the current adapter, one sequence per forward."""
    import torch

    from .packing import Chain, PackedSequence, assemble
    from .train import InvalidBatch

    out: list[list[float]] = []
    for i, seq in enumerate(req.sequences):
        ids = [*seq.prompt_ids, *seq.completion_ids]
        if max(ids) >= learner.vocab_size:
            raise InvalidBatch(f"sequences.{i}: token id {max(ids)} is outside the vocabulary of {learner.vocab_size}")
        mask = [False] * len(seq.prompt_ids) + [True] * len(seq.completion_ids)
        mb = assemble([PackedSequence(Chain(ids, mask, [0.0] * len(ids), steps=1), 0, "rl")])
        with torch.no_grad():
            out.append([float(x) for x in learner.token_logprobs(mb).float().cpu()])
    return ScoreResponse(request_id=req.request_id, policy_version=learner.version, logprobs=out)


def _emit(out: IO[str], message) -> None:
    out.write(message.model_dump_json() + "\n")
    out.flush()


def _request_id(line: str) -> str | None:
    try:
        rid = json.loads(line).get("request_id")
        return rid if isinstance(rid, str) else None
    except (ValueError, AttributeError):
        return None


def _load_batch(req: TrainStepRequest) -> TrainBatch:
    if isinstance(req.batch, FileBatch):
        if not req.batch.path.is_file():
            raise FileNotFoundError(f"batch file {req.batch.path} does not exist")
        return TrainBatch.model_validate_json(req.batch.path.read_text())
    return req.batch.batch


def serve(cfg: LearnerConfig, inp: IO[str], out: IO[str], initial_adapter: Path | None = None) -> None:
    from .distributed import init_distributed
    from .event_log import EventLog
    from .train import InvalidBatch, Learner

    if cfg.serving is not None:  # before any weight is read: a tokenizer that disagrees with the server ends it here
        from .tokenizer_check import check_serving

        check_serving(cfg.model, cfg.serving)
    ctx = init_distributed()
    learner = Learner(cfg, ctx, initial_adapter)
    if initial_adapter is not None:
        load_trainer_state(learner, initial_adapter)
    events = EventLog(cfg.tensorboard_dir) if ctx.is_main and cfg.tensorboard_dir is not None else None
    if ctx.is_main:
        _emit(out, ReadyMessage(policy_version=learner.version, world_size=ctx.world_size, device=str(ctx.device),
                                trainable_parameters=learner.trainable_parameters))
    while True:
        line = _next_line(inp, ctx)
        if line is None:  # stdin closed: the worker is gone, so stop
            return
        if not line.strip():
            continue
        try:
            req = _REQUEST.validate_json(line)
        except ValidationError as e:
            if ctx.is_main:
                _emit(out, ErrorResponse(request_id=_request_id(line), error_kind="invalid_request", message=str(e)))
            continue
        if isinstance(req, ShutdownRequest):
            if ctx.is_main:
                _emit(out, ShutdownResponse(request_id=req.request_id))
            return
        if isinstance(req, StatusRequest):
            if ctx.is_main:
                _emit(out, StatusResponse(
                    request_id=req.request_id, policy_version=learner.version,
                    adapter_path=str(learner.adapter_path) if learner.adapter_path else None,
                    world_size=ctx.world_size, device=str(ctx.device),
                    trainable_parameters=learner.trainable_parameters))
            continue
        if isinstance(req, (SftStepRequest, SftEvalRequest, SaveAdapterRequest, SftEpochRequest)):
            answer = _sft_request(learner, req, ctx, out)
            if ctx.is_main:
                _emit(out, answer)
            continue
        if isinstance(req, ScoreRequest):
            try:
                scored: ScoreResponse | ErrorResponse = score(learner, req)
            except InvalidBatch as e:
                scored = ErrorResponse(request_id=req.request_id, error_kind="invalid_request", message=str(e))
            if ctx.is_main:
                _emit(out, scored)
            continue
        try:
            metrics = learner.train_step(_load_batch(req))
            if events is not None:
                events.write(learner.version, metrics)
            if learner.adapter_path is not None and ctx.is_main and metrics.trajectories_trained + metrics.sft_examples_trained:
                save_trainer_state(learner, learner.adapter_path)
            response: TrainStepResponse | ErrorResponse = TrainStepResponse(
                request_id=req.request_id, policy_version=learner.version,
                adapter_path=str(learner.adapter_path) if learner.adapter_path else None, metrics=metrics,
                dropped=learner.last_dropped)
        except (InvalidBatch, ValidationError, FileNotFoundError) as e:
            response = ErrorResponse(request_id=req.request_id, error_kind="invalid_request", message=str(e))
        except Exception as e:  # noqa: BLE001 - reported to the caller, with the traceback on stderr
            traceback.print_exc(file=sys.stderr)
            response = ErrorResponse(request_id=req.request_id, error_kind="internal", message=f"{type(e).__name__}: {e}")
        if ctx.is_main:
            _emit(out, response)


def _save_named(learner, name: str, ctx) -> Path:
    from .lora import save_adapter

    path = learner.cfg.output_dir / name
    if ctx.is_main:
        save_adapter(learner.model, path, learner.version, learner.cfg.lora, learner.cfg.base_model_name)
        save_trainer_state(learner, path)
    return path


def _sft_epoch(learner, req: SftEpochRequest, ctx, out: IO[str]) -> SftEpochResponse:
    """A whole epoch (sft.sft_epoch), a progress line after each step, the adapter saved as epoch-<N>."""
    from .sft import read_examples, sft_epoch

    train = read_examples(req.train_path)
    heldout = read_examples(req.heldout_path) if req.heldout_path and req.heldout_path.is_file() \
        and req.heldout_path.read_text().strip() else []

    def progress(done: int, of: int, mean_loss: float) -> None:
        if ctx.is_main:
            _emit(out, SftProgress(request_id=req.request_id, step=done, of=of, mean_loss=mean_loss))

    r = sft_epoch(learner, train, heldout, req.epoch, req.epochs, req.lr, req.warmup_steps, req.batch_examples,
                  req.seed, progress)
    path = _save_named(learner, f"epoch-{req.epoch}", ctx)
    return SftEpochResponse(request_id=req.request_id, epoch=req.epoch, steps=r.steps, train_loss=r.train_loss,
                            held_out_loss=r.held_out_loss, adapter_path=str(path), policy_version=learner.version,
                            too_long_dropped=r.too_long_dropped)


def _sft_request(learner, req, ctx, out: IO[str]):
    """The SFT requests (sft.py): a whole epoch, a step, a held-out loss, or saving the adapter under a name."""
    from .sft import MaskError, read_examples, sft_eval, sft_step

    try:
        if isinstance(req, SaveAdapterRequest):
            return SaveAdapterResponse(request_id=req.request_id, adapter_path=str(_save_named(learner, req.name, ctx)))
        if isinstance(req, SftEpochRequest):
            return _sft_epoch(learner, req, ctx, out)
        examples = read_examples(req.examples_path)
        if isinstance(req, SftEvalRequest):
            loss, tokens = sft_eval(learner, examples)
            return SftEvalResponse(request_id=req.request_id, loss=loss, tokens=tokens)
        m = sft_step(learner, examples, req.lr)
        learner.version += 1  # the adapter changed: a new policy version, as after an RL step
        return SftStepResponse(request_id=req.request_id, **vars(m))
    except (MaskError, FileNotFoundError, ValidationError, ValueError) as e:
        return ErrorResponse(request_id=req.request_id, error_kind="invalid_request", message=str(e))
    except Exception as e:  # noqa: BLE001 - reported to the caller, with the traceback on stderr
        traceback.print_exc(file=sys.stderr)
        return ErrorResponse(request_id=req.request_id, error_kind="internal", message=f"{type(e).__name__}: {e}")


def _next_line(inp: IO[str], ctx) -> str | None:
    """Rank 0 reads; with several ranks it broadcasts the line (None = end of input) to the others."""
    line = inp.readline() if ctx.is_main else None
    if ctx.is_main and line == "":
        line = None
    if ctx.distributed:
        import torch.distributed as dist

        box = [line]
        dist.broadcast_object_list(box, src=0)
        line = box[0]
    return line


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when the worker that started it dies.

    The worker owns the service: when it is SIGKILLed mid-step, its supervisor starts a new worker, and the retried step
    starts a new service from the last committed checkpoint. Without this the orphan (its stdin closed, but read only
    between requests) keeps training the old attempt: it holds the CPU or the GPU's memory the new service needs, and
    then writes the same adapter folder `v<N>` the new service writes (infra/check-training-chaos saw one run on for
    minutes). Under torchrun the ranks die with torchrun. Elsewhere (no prctl) the closed stdin still stops it after
    its current request."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import os
    import signal

    parent = os.getppid()
    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def main(argv: list[str] | None = None) -> None:
    _die_with_parent()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", type=Path, help="LearnerConfig as JSON (defaults: tiny Qwen3-MoE on CPU)")
    parser.add_argument("--adapter", type=Path, help="PEFT directory to start from (its policy version is kept)")
    args = parser.parse_args(argv)
    cfg = LearnerConfig.model_validate_json(args.config.read_text()) if args.config else LearnerConfig()
    serve(cfg, sys.stdin, sys.stdout, args.adapter)


if __name__ == "__main__":
    main()
