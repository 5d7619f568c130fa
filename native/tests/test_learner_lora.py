"""LoRA placement, the reference (adapters off), PEFT round trip, and PEFT/vLLM semantics of the exported adapter."""

import json

import torch
from peft import PeftModel

from debugrl_native.learner.config import LoraConfig, TinyQwen3MoeSource
from debugrl_native.learner.experts import MoeExperts
from debugrl_native.learner.lora import (
    LoraLinear,
    adapters_disabled,
    apply_lora,
    load_adapter,
    lora_parameters,
    read_adapter_version,
    save_adapter,
    to_peft_state_dict,
)
from debugrl_native.learner.models import build_qwen3_moe

SRC = TinyQwen3MoeSource(num_hidden_layers=2)
IDS = torch.tensor([[1, 7, 19, 42, 77, 100, 3, 64]])


def _adapted(cfg=LoraConfig(rank=4, alpha=8.0), seed=0):
    model = build_qwen3_moe(SRC).eval()
    apply_lora(model, cfg)
    torch.manual_seed(seed)
    with torch.no_grad():  # B = 0 at init would make every adapter a no-op; give them values
        for name, p in lora_parameters(model).items():
            if name.endswith("_B"):
                p.normal_(0, 0.2)
    return model


def test_adapters_on_attention_and_every_expert_packed():
    model = _adapted()
    layer = model.model.layers[0]
    assert isinstance(layer.self_attn.q_proj, LoraLinear) and isinstance(layer.self_attn.o_proj, LoraLinear)
    experts = layer.mlp.experts
    assert isinstance(experts, MoeExperts)
    # one packed tensor per projection x A/B: [E, r, in] and [E, out, r]
    assert experts.lora.gate_A.shape == (8, 4, 64) and experts.lora.gate_B.shape == (8, 32, 4)
    assert experts.lora.down_A.shape == (8, 4, 32) and experts.lora.down_B.shape == (8, 64, 4)
    trainable = {n for n, p in model.named_parameters() if p.requires_grad}
    assert trainable == set(lora_parameters(model))
    # base names unchanged (the state dict of the base still loads)
    assert "model.layers.0.self_attn.q_proj.weight" in dict(model.named_parameters())


def test_reference_is_the_same_base_with_adapters_off():
    base = build_qwen3_moe(SRC).eval()
    model = _adapted()
    with torch.no_grad():
        ref = base(input_ids=IDS).logits
        with adapters_disabled(model):
            off = model(input_ids=IDS).logits
        on = model(input_ids=IDS).logits
    torch.testing.assert_close(off, ref)
    assert not torch.allclose(on, ref, atol=1e-3)
    # no second copy of the base: the experts module holds the very Parameter objects of the model
    assert model.model.layers[0].mlp.experts.gate_up_proj is dict(model.named_parameters())[
        "model.layers.0.mlp.experts.gate_up_proj"]


def test_peft_round_trip_with_version_metadata(tmp_path):
    model = _adapted(seed=1)
    out = save_adapter(model, tmp_path / "v7", 7, LoraConfig(rank=4, alpha=8.0), "tiny")
    assert read_adapter_version(out) == 7
    cfg = json.loads((out / "adapter_config.json").read_text())
    assert cfg["peft_type"] == "LORA" and cfg["r"] == 4 and "gate_proj" in cfg["target_modules"]
    sd = to_peft_state_dict(model)
    assert sd["base_model.model.model.layers.1.mlp.experts.7.up_proj.lora_A.weight"].shape == (4, 64)
    other = _adapted(seed=2)
    assert load_adapter(other, out) == 7
    for (n, a), (_, b) in zip(lora_parameters(model).items(), lora_parameters(other).items()):
        torch.testing.assert_close(a, b, msg=n)
    with torch.no_grad():
        torch.testing.assert_close(other(input_ids=IDS).logits, model(input_ids=IDS).logits)


def test_exported_attention_adapter_means_the_same_to_peft(tmp_path):
    # PEFT itself loads our directory onto a fresh base and must produce our logits.
    cfg = LoraConfig(rank=4, alpha=8.0, experts=False)
    ours = _adapted(cfg)
    save_adapter(ours, tmp_path / "a", 1, cfg, "tiny")
    peft_model = PeftModel.from_pretrained(build_qwen3_moe(SRC).eval(), str(tmp_path / "a")).eval()
    with torch.no_grad():
        torch.testing.assert_close(peft_model(input_ids=IDS).logits, ours(input_ids=IDS).logits, rtol=1e-5, atol=1e-5)


def test_exported_expert_adapters_merge_per_expert_to_the_same_model():
    # vLLM applies per-expert keys as W_e' = W_e + (alpha/r) B_e A_e. Merge them into a plain base by hand
    # (gate rows then up rows of gate_up_proj) and compare with our packed grouped forward.
    ours = _adapted()
    sd = to_peft_state_dict(ours)
    merged = build_qwen3_moe(SRC).eval()
    s = 8.0 / 4
    with torch.no_grad():
        for name, module in merged.named_modules():
            for proj in ("q_proj", "k_proj", "v_proj", "o_proj"):
                key = f"base_model.model.{name}.{proj}"
                if f"{key}.lora_A.weight" in sd:
                    lin = getattr(module, proj)
                    lin.weight += s * sd[f"{key}.lora_B.weight"] @ sd[f"{key}.lora_A.weight"]
            if name.endswith("mlp.experts"):
                inter = module.down_proj.shape[-1]
                for e in range(module.gate_up_proj.shape[0]):
                    d = lambda p, name=name, e=e: s * sd[f"base_model.model.{name}.{e}.{p}.lora_B.weight"] @ sd[  # noqa: E731
                        f"base_model.model.{name}.{e}.{p}.lora_A.weight"]
                    module.gate_up_proj[e, :inter] += d("gate_proj")
                    module.gate_up_proj[e, inter:] += d("up_proj")
                    module.down_proj[e] += d("down_proj")
        torch.testing.assert_close(merged(input_ids=IDS).logits, ours(input_ids=IDS).logits, rtol=1e-4, atol=1e-4)
