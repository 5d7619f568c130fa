"""Two CPU ranks (gloo) under FSDP1: the base is sharded, the adapters stay replicated and identical, and one
update equals the single-process update on the same batch."""

import os
import socket

import pytest
import torch
import torch.multiprocessing as mp

from debugrl_native.learner.config import LearnerConfig, LoraConfig
from debugrl_native.learner.synthetic import fill_rollout_logprobs, synthetic_batch


def _cfg(out):
    # 4 groups so both ranks get work; max_tokens small so there are several microbatches (and a dummy slot)
    return LearnerConfig.model_validate({"lora": LoraConfig(rank=4, alpha=8.0).model_dump(), "output_dir": str(out),
                                         "packing": {"max_tokens": 64}})


def _rank_main(rank, world, port, out, batch_json, result_dir):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank), WORLD_SIZE=str(world))
    torch.set_num_threads(1)
    import torch.distributed as dist
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

    from debugrl_native.learner.distributed import init_distributed
    from debugrl_native.learner.protocol import TrainBatch
    from debugrl_native.learner.train import Learner

    ctx = init_distributed()
    learner = Learner(_cfg(out), ctx)
    assert isinstance(learner.model, FSDP)
    # the frozen base is sharded: each rank holds about half of the flat parameters
    local = sum(p.numel() for m in FSDP.fsdp_modules(learner.model) for p in m.params)
    m = learner.train_step(TrainBatch.model_validate_json(batch_json))
    torch.save({"adapters": [p.detach().clone() for p in learner.adapter_params], "local_base": local,
                "loss": m.loss_total, "microbatches": m.microbatches, "tokens": m.tokens},
               os.path.join(result_dir, f"rank{rank}.pt"))
    dist.barrier()
    dist.destroy_process_group()


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_two_rank_gloo_fsdp_matches_single_process(tmp_path):
    from debugrl_native.learner.train import Learner

    single = Learner(_cfg(tmp_path / "single"))
    full_base = sum(p.numel() for p in single.model.parameters()) - single.trainable_parameters
    batch = fill_rollout_logprobs(single.model, synthetic_batch(single.vocab_size, groups=4, sft_examples=1, seed=5))
    expected = single.train_step(batch)
    mp.spawn(_rank_main, args=(2, _free_port(), str(tmp_path / "fsdp"), batch.model_dump_json(), str(tmp_path)),
             nprocs=2, join=True)
    r0, r1 = (torch.load(tmp_path / f"rank{r}.pt") for r in (0, 1))
    assert expected.microbatches >= 3
    for a, b, s in zip(r0["adapters"], r1["adapters"], single.adapter_params):
        torch.testing.assert_close(a, b, rtol=0, atol=0)  # replicated: bit-identical on both ranks
        torch.testing.assert_close(a, s.detach(), rtol=1e-4, atol=1e-6)  # and the same update as one process
    assert abs(r0["loss"] - expected.loss_total) < 1e-5
    assert r0["local_base"] < 0.6 * full_base  # sharded, not replicated
    assert (tmp_path / "fsdp" / "v1" / "adapter_model.safetensors").is_file()
