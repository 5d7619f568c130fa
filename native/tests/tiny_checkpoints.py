"""Tiny random-weight checkpoints of every learner family, written like real ones: a config built with AutoConfig, a
model from `from_config` saved with `save_pretrained`, and a byte-level BPE tokenizer (trained here with the
`tokenizers` library) whose size is the config's vocab_size, with a ChatML chat template."""

from __future__ import annotations

from pathlib import Path

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import AutoConfig, AutoModelForCausalLM, PreTrainedTokenizerFast

CHATML = ("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
          "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")
SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
CORPUS = ["def add(a, b):\n    return a + b\n", "The test fails: assert add(2, 2) == 4", "Let me set a breakpoint.",
          "You fix Python bugs with a debugger.", "It returned 5.", "import pdb; pdb.set_trace()"] * 20

SIZES = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
             max_position_embeddings=512)
FAMILY_CONFIGS = {
    "llama": dict(intermediate_size=128, tie_word_embeddings=True),  # SmolLM2 ties its embeddings
    "qwen2": dict(intermediate_size=128, tie_word_embeddings=False),
    "qwen3": dict(intermediate_size=128, head_dim=16, tie_word_embeddings=False),
    "qwen3_moe": dict(intermediate_size=128, head_dim=16, num_experts=8, num_experts_per_tok=2,
                      moe_intermediate_size=32, decoder_sparse_step=1, mlp_only_layers=[], norm_topk_prob=True,
                      tie_word_embeddings=False),
}


def tiny_tokenizer(vocab_size: int = 300, template: str = CHATML, specials: list[str] = SPECIALS,
                   corpus: list[str] = CORPUS) -> PreTrainedTokenizerFast:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=specials,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(corpus, trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                   additional_special_tokens=[s for s in specials if s not in ("<|im_end|>", "<|endoftext|>")])
    fast.chat_template = template
    return fast


def write_checkpoint(path: Path, model_type: str, tokenizer: PreTrainedTokenizerFast | None = None, seed: int = 0,
                     with_tokenizer: bool = True) -> Path:
    tokenizer = tokenizer or tiny_tokenizer()
    cfg = AutoConfig.for_model(model_type, vocab_size=len(tokenizer), **SIZES, **FAMILY_CONFIGS[model_type])
    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_config(cfg)
    model.save_pretrained(path)
    if with_tokenizer:
        tokenizer.save_pretrained(path)
    return path
