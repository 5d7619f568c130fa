"""Load the base causal LM: a Qwen3-MoE from a config (random weights), a local HF directory, or a dense GGUF.

A local HF directory is any checkpoint of a family in families.py (Llama/SmolLM2, Qwen2/2.5, Qwen3, Qwen3-MoE), named
by its config.json; it is checked (config, architecture, tokenizer, weights) before any weight is read.

Only transformers' own classes are used (`Qwen3MoeConfig`, `Qwen3MoeForCausalLM`, and `from_pretrained(...,
gguf_file=...)`, which de-quantizes GGUF tensors into a Llama-class model). Everything is read from local disk:
`local_files_only=True`, so a missing file is an error, never a hub download.
"""

from __future__ import annotations

import torch
from transformers import AutoModelForCausalLM, PreTrainedModel, Qwen3MoeConfig, Qwen3MoeForCausalLM

from .config import GgufSource, HfDirectorySource, LearnerConfig, ModelSource, TinyQwen3MoeSource
from .families import read_checkpoint

_DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16}


def qwen3_moe_config(src: TinyQwen3MoeSource, attn_implementation: str = "sdpa") -> Qwen3MoeConfig:
    cfg = Qwen3MoeConfig(
        vocab_size=src.vocab_size,
        hidden_size=src.hidden_size,
        intermediate_size=4 * src.hidden_size,  # dense-MLP size; unused because every layer is sparse
        num_hidden_layers=src.num_hidden_layers,
        num_attention_heads=src.num_attention_heads,
        num_key_value_heads=src.num_key_value_heads,
        head_dim=src.head_dim,
        num_experts=src.num_experts,
        num_experts_per_tok=src.num_experts_per_tok,
        moe_intermediate_size=src.moe_intermediate_size,
        max_position_embeddings=src.max_position_embeddings,
        norm_topk_prob=True,  # as in Qwen3-Coder-30B-A3B
        decoder_sparse_step=1,
        tie_word_embeddings=False,
        use_cache=False,
        output_router_logits=False,
    )
    cfg._attn_implementation = attn_implementation
    return cfg


def build_qwen3_moe(src: TinyQwen3MoeSource, dtype: torch.dtype = torch.float32, attn_implementation: str = "sdpa",
                    device: torch.device | str = "cpu") -> Qwen3MoeForCausalLM:
    """Random-weight Qwen3-MoE, deterministic in `src.seed` (every FSDP rank builds the same weights)."""
    state = torch.random.get_rng_state()
    torch.manual_seed(src.seed)
    try:
        with torch.device(device):
            model = Qwen3MoeForCausalLM(qwen3_moe_config(src, attn_implementation))
    finally:
        torch.random.set_rng_state(state)
    return model.to(dtype)


def load_model(source: ModelSource, dtype: str = "float32", attn_implementation: str = "sdpa",
               device: torch.device | str = "cpu") -> PreTrainedModel:
    torch_dtype = _DTYPES[dtype]
    if isinstance(source, TinyQwen3MoeSource):
        model: PreTrainedModel = build_qwen3_moe(source, torch_dtype, attn_implementation, device)
    elif isinstance(source, HfDirectorySource):
        read_checkpoint(source.path)  # fails at once, naming the cause, before any weight is read
        model = AutoModelForCausalLM.from_pretrained(
            source.path, dtype=torch_dtype, attn_implementation=attn_implementation, local_files_only=True
        ).to(device)
    elif isinstance(source, GgufSource):
        if not source.path.is_file():
            raise FileNotFoundError(f"GGUF file {source.path} does not exist")
        model = AutoModelForCausalLM.from_pretrained(
            source.path.parent, gguf_file=source.path.name, dtype=torch_dtype,
            attn_implementation=attn_implementation, local_files_only=True,
        ).to(device)
    else:  # pragma: no cover - the discriminated union makes this unreachable
        raise TypeError(f"unknown model source {source!r}")
    model.config.use_cache = False
    return model


def load_from_config(cfg: LearnerConfig, device: torch.device | str = "cpu") -> PreTrainedModel:
    return load_model(cfg.model, cfg.dtype, cfg.attn_implementation, device)
