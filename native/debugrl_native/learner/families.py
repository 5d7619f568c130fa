"""The model families the learner trains, decided by what a checkpoint's `config.json` says, never by a list of names.

A checkpoint directory is what vLLM serves and what `save_pretrained` writes: `config.json`, the weights
(safetensors) and the tokenizer (`tokenizer.json` or `tokenizer.model`, with `tokenizer_config.json` carrying the chat
template). Its family is read from `model_type` (and the first of `architectures` must be that family's causal-LM
class): any Llama-architecture checkpoint is a `llama`, whatever its name, and a `MistralForCausalLM` is refused
because nothing here has been checked against it.

Per family the learner knows what LoRA targets exist and what names vLLM reads them under (`vllm_modules`): vLLM packs
q/k/v into `qkv_proj` and gate/up into `gate_up_proj` itself, so an adapter names the checkpoint's own modules
(`self_attn.q_proj`, `mlp.gate_proj`, and for Qwen3-MoE one module per expert, `mlp.experts.<e>.gate_proj`).

Everything is checked before any weight is read, so a wrong directory fails in milliseconds with its cause.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


class UnsupportedCheckpoint(ValueError):
    """A checkpoint directory the learner cannot train: no config.json, an architecture it does not know, no tokenizer."""


@dataclass(frozen=True)
class Family:
    name: str  # the config's model_type
    architecture: str  # the transformers causal-LM class the checkpoint must name
    moe: bool  # experts packed per layer (trained through experts.py's grouped GEMMs)
    attention_modules: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj")
    mlp_modules: tuple[str, ...] = ("gate_proj", "up_proj", "down_proj")  # dense MLP, or each expert's MLP

    def vllm_modules(self, attention: tuple[str, ...], dense_mlp: tuple[str, ...], experts: bool) -> list[str]:
        """The adapter's `target_modules` as vLLM matches them: leaf names of the checkpoint's own Linear modules."""
        mlp = self.mlp_modules if (self.moe and experts) else (dense_mlp if not self.moe else ())
        return sorted(set(attention) | set(mlp))


FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("llama", "LlamaForCausalLM", moe=False),  # SmolLM2, Llama 2/3
    Family("qwen2", "Qwen2ForCausalLM", moe=False),  # Qwen2, Qwen2.5, Qwen2.5-Coder
    Family("qwen3", "Qwen3ForCausalLM", moe=False),
    Family("qwen3_moe", "Qwen3MoeForCausalLM", moe=True),  # Qwen3-30B-A3B, Qwen3-Coder-30B-A3B
)}

# Either is enough for transformers' fast tokenizer: the serialized tokenizer, or a sentencepiece model.
_TOKENIZER_FILES = ("tokenizer.json", "tokenizer.model")
_WEIGHT_SUFFIXES = (".safetensors", ".bin")


@dataclass(frozen=True)
class Checkpoint:
    path: Path
    family: Family
    config: dict  # config.json as read
    vocab_size: int


def read_checkpoint(path: Path, need_weights: bool = True) -> Checkpoint:
    """Check a checkpoint directory and name its family; every failure says what is missing or unknown."""
    path = Path(path)
    if not path.is_dir():
        raise UnsupportedCheckpoint(f"model directory {path} does not exist")
    cfg_file = path / "config.json"
    if not cfg_file.is_file():
        raise UnsupportedCheckpoint(f"{path} has no config.json: expected a transformers checkpoint directory "
                                    "(config.json, *.safetensors, tokenizer.json)")
    try:
        config = json.loads(cfg_file.read_text())
    except ValueError as e:
        raise UnsupportedCheckpoint(f"{cfg_file} is not valid JSON: {e}") from e
    model_type = config.get("model_type")
    archs = config.get("architectures") or []
    family = FAMILIES.get(model_type or "")
    supported = ", ".join(f"{f.name} ({f.architecture})" for f in FAMILIES.values())
    if family is None:
        raise UnsupportedCheckpoint(f"{cfg_file}: model_type {model_type!r} (architectures {archs}) is not supported; "
                                    f"the learner trains {supported}")
    if archs and archs[0] != family.architecture:
        raise UnsupportedCheckpoint(f"{cfg_file}: architecture {archs[0]!r} is not the causal LM of model_type "
                                    f"{model_type!r} ({family.architecture}); the learner trains {supported}")
    if not any((path / f).is_file() for f in _TOKENIZER_FILES):
        raise UnsupportedCheckpoint(f"{path} has no tokenizer ({' or '.join(_TOKENIZER_FILES)}): the learner reads the "
                                    "tokenizer and chat template the server uses from the model directory")
    if need_weights and not any(p.name.endswith(_WEIGHT_SUFFIXES) for p in path.iterdir()):
        raise UnsupportedCheckpoint(f"{path} has no weights (*.safetensors)")
    vocab = config.get("vocab_size")
    if not isinstance(vocab, int) or vocab <= 0:
        raise UnsupportedCheckpoint(f"{cfg_file}: vocab_size {vocab!r} is not a positive integer")
    return Checkpoint(path=path, family=family, config=config, vocab_size=vocab)


def family_of_model(model) -> Family | None:
    """The family of an already-loaded transformers model (the GGUF and tiny sources too), by its config."""
    return FAMILIES.get(getattr(model.config, "model_type", ""))


def load_tokenizer(path: Path):
    """The checkpoint's own tokenizer (with its chat template), from local files only."""
    from transformers import AutoTokenizer

    try:
        return AutoTokenizer.from_pretrained(str(path), local_files_only=True)
    except (OSError, ValueError) as e:
        raise UnsupportedCheckpoint(f"{path}: the tokenizer does not load: {e}") from e


def main(argv: list[str] | None = None) -> None:
    """`python -m debugrl_native.learner.families DIR`: check a checkpoint directory before anything starts (the CLI's
    `--model DIR`). Prints {"family", "architecture", "vocab_size"} as JSON, or the cause on stderr and exits 2."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m debugrl_native.learner.families <model directory>", file=sys.stderr)
        sys.exit(2)
    try:
        ckpt = read_checkpoint(Path(args[0]))
    except UnsupportedCheckpoint as e:
        print(str(e), file=sys.stderr)
        sys.exit(2)
    print(json.dumps({"family": ckpt.family.name, "architecture": ckpt.family.architecture, "vocab_size": ckpt.vocab_size}))


if __name__ == "__main__":
    main()
