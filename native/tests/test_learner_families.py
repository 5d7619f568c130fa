"""Every model family the learner trains, from a checkpoint directory as vLLM would serve it (tiny, random weights):
loading by what config.json says, one GRPO step, one SFT step, the adapter loaded by PEFT giving the learner's logits,
Qwen3-MoE's grouped experts against transformers' own loop, and the bad directories that must fail at once."""

import json

import pytest
import torch
from peft import PeftModel
from transformers import AutoModelForCausalLM

from debugrl_native.learner.config import HfDirectorySource, LearnerConfig, LoraConfig
from debugrl_native.learner.experts import MoeExperts, install_experts
from debugrl_native.learner.families import UnsupportedCheckpoint, read_checkpoint
from debugrl_native.learner.lora import adapters_disabled, lora_parameters, save_adapter
from debugrl_native.learner.models import load_model
from debugrl_native.learner.protocol import Group, SftExample, Step, TrainBatch, Trajectory
from debugrl_native.learner.sft import sft_step
from debugrl_native.learner.train import Learner
from tiny_checkpoints import FAMILY_CONFIGS, tiny_tokenizer, write_checkpoint

FAMILIES = sorted(FAMILY_CONFIGS)
IDS = torch.tensor([[1, 17, 40, 99, 250, 3, 64, 128, 7]])


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    root = tmp_path_factory.mktemp("ckpt")
    tok = tiny_tokenizer()
    return {f: write_checkpoint(root / f, f, tok) for f in FAMILIES}


def _learner(path, tmp_path, **kw) -> Learner:
    cfg = LearnerConfig(model=HfDirectorySource(path=path), lora=LoraConfig(rank=4, alpha=8.0, seed=1),
                        output_dir=tmp_path / "out", base_model_name="tiny", **kw)
    return Learner(cfg)


def _batch(vocab: int) -> TrainBatch:
    g = torch.Generator().manual_seed(0)

    def traj(i: int, reward: float) -> Trajectory:
        prompt = torch.randint(0, vocab, (12,), generator=g).tolist()
        completion = torch.randint(0, vocab, (6,), generator=g).tolist()
        return Trajectory(trajectory_id=f"t{i}", reward=reward, steps=[Step(
            prompt_ids=prompt, completion_ids=completion, completion_logprobs=[-2.0] * 6, policy_version=0)])

    return TrainBatch(groups=[Group(group_id="g", trajectories=[traj(0, 1.0), traj(1, 0.0), traj(2, 0.5)])])


@pytest.mark.parametrize("family", FAMILIES)
def test_loads_by_what_config_json_says(checkpoints, family):
    ckpt = read_checkpoint(checkpoints[family])
    assert ckpt.family.name == family and ckpt.vocab_size == 300
    model = load_model(HfDirectorySource(path=checkpoints[family]))
    assert type(model).__name__ == ckpt.family.architecture


@pytest.mark.parametrize("family", FAMILIES)
def test_one_grpo_step_and_one_sft_step(checkpoints, family, tmp_path):
    learner = _learner(checkpoints[family], tmp_path)
    assert learner.checkpointing  # on by default for a CPU learner
    if family == "qwen3_moe":
        assert all(isinstance(layer.mlp.experts, MoeExperts) for layer in learner.model.model.layers)
    before = [p.detach().clone() for p in learner.adapter_params]
    m = learner.train_step(_batch(learner.vocab_size))
    assert learner.version == 1 and m.trajectories_trained == 3 and m.grad_norm > 0
    assert torch.isfinite(torch.tensor(m.loss_total))
    assert m.peak_memory_bytes > 0 and m.memory_budget_bytes > m.peak_memory_bytes
    assert any(not torch.equal(a, b) for a, b in zip(before, learner.adapter_params))
    assert (tmp_path / "out" / "v1" / "adapter_model.safetensors").is_file()
    ex = SftExample(example_id="e", token_ids=list(range(5, 25)), assistant_mask=[False] * 12 + [True] * 8)
    s = sft_step(learner, [ex], lr=1e-3)
    assert s.tokens == 8 and s.loss > 0 and s.grad_norm > 0


@pytest.mark.parametrize("family", FAMILIES)
def test_saved_adapter_loaded_by_peft_gives_the_learners_logits(checkpoints, family, tmp_path):
    # vLLM reads the same PEFT directory: its module names are the checkpoint's own, per expert for Qwen3-MoE
    # (`mlp.experts.<e>.gate_proj`), which PEFT maps onto transformers' packed experts itself.
    learner = _learner(checkpoints[family], tmp_path)
    torch.manual_seed(2)
    with torch.no_grad():  # B = 0 at init would make every adapter a no-op; give them values
        for name, p in lora_parameters(learner.model).items():
            if name.endswith("lora_B") or name.endswith("_B"):
                p.normal_(0, 0.2)
    out = save_adapter(learner.model, tmp_path / "adapter", 3, learner.cfg.lora, "tiny")
    targets = json.loads((out / "adapter_config.json").read_text())["target_modules"]
    moe = family == "qwen3_moe"
    assert targets == sorted(["q_proj", "k_proj", "v_proj", "o_proj"] + (["gate_proj", "up_proj", "down_proj"] * moe))
    base = AutoModelForCausalLM.from_pretrained(checkpoints[family], local_files_only=True).eval()
    peft = PeftModel.from_pretrained(base, str(out)).eval()
    learner.model.eval()
    with torch.no_grad():
        ours = learner.model(input_ids=IDS).logits
        with adapters_disabled(learner.model):
            plain = learner.model(input_ids=IDS).logits
        theirs = peft(input_ids=IDS).logits
    assert not torch.allclose(ours, plain, atol=1e-3)  # the adapter matters, so the comparison means something
    torch.testing.assert_close(theirs, ours, rtol=1e-4, atol=1e-4)


def test_qwen3_moe_grouped_experts_equal_transformers_loop(checkpoints):
    path = checkpoints["qwen3_moe"]
    theirs = AutoModelForCausalLM.from_pretrained(path, local_files_only=True).eval()
    assert not any(isinstance(m, MoeExperts) for m in theirs.modules())
    cfg = LearnerConfig(model=HfDirectorySource(path=path), experts_impl="grouped")
    ours = load_model(cfg.model)
    assert len(install_experts(ours, "grouped")) == 2
    ids = torch.randint(0, 300, (1, 64), generator=torch.Generator().manual_seed(3))
    with torch.no_grad():
        torch.testing.assert_close(ours.eval()(input_ids=ids).logits, theirs(input_ids=ids).logits,
                                   rtol=1e-5, atol=1e-5)


# --- directories that must fail at once ------------------------------------------------------------------------------


def test_a_directory_without_config_json(tmp_path):
    (tmp_path / "m").mkdir()
    with pytest.raises(UnsupportedCheckpoint, match="has no config.json"):
        load_model(HfDirectorySource(path=tmp_path / "m"))


def test_an_unsupported_architecture(tmp_path):
    from transformers import GPT2Config, GPT2LMHeadModel

    GPT2LMHeadModel(GPT2Config(n_embd=32, n_layer=1, n_head=2, vocab_size=300)).save_pretrained(tmp_path / "gpt2")
    tiny_tokenizer().save_pretrained(tmp_path / "gpt2")
    with pytest.raises(UnsupportedCheckpoint, match="model_type 'gpt2'.*not supported.*qwen3_moe"):
        load_model(HfDirectorySource(path=tmp_path / "gpt2"))


def test_an_architecture_that_is_not_the_families_causal_lm(checkpoints, tmp_path):
    import shutil

    shutil.copytree(checkpoints["llama"], tmp_path / "cls")
    cfg = json.loads((tmp_path / "cls" / "config.json").read_text())
    (tmp_path / "cls" / "config.json").write_text(json.dumps(cfg | {"architectures": ["LlamaForSequenceClassification"]}))
    with pytest.raises(UnsupportedCheckpoint, match="LlamaForSequenceClassification"):
        read_checkpoint(tmp_path / "cls")


def test_a_checkpoint_without_its_tokenizer(tmp_path):
    path = write_checkpoint(tmp_path / "notok", "qwen2", with_tokenizer=False)
    with pytest.raises(UnsupportedCheckpoint, match="has no tokenizer"):
        load_model(HfDirectorySource(path=path))
