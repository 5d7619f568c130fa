"""Model loading: tiny Qwen3-MoE from a config, and a dense Llama-class model from a GGUF file."""

import numpy as np
import pytest
import torch
from transformers import LlamaConfig, LlamaForCausalLM

from debugrl_native.learner.config import GgufSource, LearnerConfig, TinyQwen3MoeSource
from debugrl_native.learner.models import load_model


def test_tiny_qwen3_moe_is_seeded_and_uses_packed_experts():
    a = load_model(TinyQwen3MoeSource(seed=3))
    b = load_model(TinyQwen3MoeSource(seed=3))
    assert type(a).__name__ == "Qwen3MoeForCausalLM"
    assert a.model.layers[0].mlp.experts.gate_up_proj.shape == (8, 2 * 32, 64)  # [E, 2I, H]
    torch.testing.assert_close(a.model.layers[1].mlp.experts.down_proj, b.model.layers[1].mlp.experts.down_proj)


def test_config_bounds_fail_at_load_time():
    with pytest.raises(ValueError, match="num_experts_per_tok"):
        TinyQwen3MoeSource(num_experts=2, num_experts_per_tok=3)
    with pytest.raises(ValueError, match="eps_high"):
        LearnerConfig.model_validate({"loss": {"eps_low": 0.3, "eps_high": 0.2}})
    with pytest.raises(ValueError):
        LearnerConfig.model_validate({"model": {"kind": "hub", "name": "Qwen/Qwen3"}})


def _llama_cpp_permute(w: np.ndarray, n_head: int) -> np.ndarray:
    # llama.cpp's convert script reorders q/k rows for its rotary layout; transformers undoes it on load
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def _write_tiny_llama_gguf(path, model: LlamaForCausalLM) -> None:
    import gguf

    c = model.config
    w = gguf.GGUFWriter(str(path), "llama")
    w.add_context_length(c.max_position_embeddings)
    w.add_embedding_length(c.hidden_size)
    w.add_block_count(c.num_hidden_layers)
    w.add_feed_forward_length(c.intermediate_size)
    w.add_rope_dimension_count(c.hidden_size // c.num_attention_heads)
    w.add_head_count(c.num_attention_heads)
    w.add_head_count_kv(c.num_key_value_heads)
    w.add_layer_norm_rms_eps(c.rms_norm_eps)
    w.add_rope_freq_base(c.rope_parameters["rope_theta"])
    w.add_vocab_size(c.vocab_size)
    sd = {k: v.detach().numpy().astype(np.float32) for k, v in model.state_dict().items()}
    w.add_tensor("token_embd.weight", sd["model.embed_tokens.weight"])
    w.add_tensor("output_norm.weight", sd["model.norm.weight"])
    w.add_tensor("output.weight", sd["lm_head.weight"])
    for i in range(c.num_hidden_layers):
        p = f"model.layers.{i}."
        w.add_tensor(f"blk.{i}.attn_norm.weight", sd[p + "input_layernorm.weight"])
        w.add_tensor(f"blk.{i}.ffn_norm.weight", sd[p + "post_attention_layernorm.weight"])
        w.add_tensor(f"blk.{i}.attn_q.weight", _llama_cpp_permute(sd[p + "self_attn.q_proj.weight"], c.num_attention_heads))
        w.add_tensor(f"blk.{i}.attn_k.weight", _llama_cpp_permute(sd[p + "self_attn.k_proj.weight"], c.num_key_value_heads))
        w.add_tensor(f"blk.{i}.attn_v.weight", sd[p + "self_attn.v_proj.weight"])
        w.add_tensor(f"blk.{i}.attn_output.weight", sd[p + "self_attn.o_proj.weight"])
        w.add_tensor(f"blk.{i}.ffn_gate.weight", sd[p + "mlp.gate_proj.weight"])
        w.add_tensor(f"blk.{i}.ffn_up.weight", sd[p + "mlp.up_proj.weight"])
        w.add_tensor(f"blk.{i}.ffn_down.weight", sd[p + "mlp.down_proj.weight"])
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def test_dense_llama_loads_from_gguf_with_identical_logits(tmp_path):
    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=96, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128,
                      tie_word_embeddings=False)
    original = LlamaForCausalLM(cfg).eval()
    path = tmp_path / "tiny-llama.gguf"
    _write_tiny_llama_gguf(path, original)
    loaded = load_model(GgufSource(path=path)).eval()
    assert type(loaded).__name__ == "LlamaForCausalLM"
    ids = torch.tensor([[1, 5, 9, 33, 70, 2]])
    with torch.no_grad():
        torch.testing.assert_close(loaded(input_ids=ids).logits, original(input_ids=ids).logits, rtol=1e-4, atol=1e-4)


def test_missing_gguf_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_model(GgufSource(path=tmp_path / "nope.gguf"))
