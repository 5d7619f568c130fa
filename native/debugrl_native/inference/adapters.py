"""LoRA adapters loaded into the served model by name, vLLM style (`/v1/load_lora_adapter`).

An adapter is a PEFT folder: adapter_config.json + adapter_model.safetensors. Its policy version is read from the
safetensors header metadata key `policy_version` (the learner writes it there), 0 when absent.

Mechanics, with peft 0.21: the first adapter wraps the base model in a PeftModel; later ones are added with
`load_adapter`; a request picks one with `set_adapter`, and the base model ("default") runs inside `disable_adapter()`.
peft leaves a PeftModel unusable once its last adapter is deleted, so unloading the last one unwraps the model
(`unload()`, which removes the LoRA layers without merging them). Loading a name that is already loaded replaces it:
the learner publishes new versions under a stable name, and a reload must not need an unload first.

peft keys its LoRA layers by adapter name in torch ModuleDicts, which refuse a "." in a key; the served names may
have one (training serves `<run>.policy-v<N>`, and run ids have dots). So peft gets a key of its own per load (`a<n>`),
and the served name maps to it.

Not thread-safe by itself: only the scheduler thread changes it, between two forward steps (scheduler.py).
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import torch

log = logging.getLogger("debugrl.inference")

ADAPTER_CONFIG = "adapter_config.json"
ADAPTER_WEIGHTS = "adapter_model.safetensors"


class AdapterError(ValueError):
    """A bad adapter folder or name: the client's mistake (HTTP 400/404), never a crash of the server."""


@dataclass(frozen=True)
class AdapterInfo:
    name: str
    path: str
    policy_version: int


def read_policy_version(folder: Path) -> int:
    from safetensors import safe_open

    with safe_open(str(folder / ADAPTER_WEIGHTS), framework="pt") as f:
        meta = f.metadata() or {}
    raw = meta.get("policy_version")
    if raw is None:
        return 0
    try:
        version = int(raw)
    except ValueError:
        raise AdapterError(f"{folder / ADAPTER_WEIGHTS}: metadata policy_version {raw!r} is not an integer") from None
    if version < 0:
        raise AdapterError(f"{folder / ADAPTER_WEIGHTS}: metadata policy_version {version} is negative")
    return version


def check_folder(path: str) -> Path:
    folder = Path(path)
    if not folder.is_dir():
        raise AdapterError(f"lora_path: {path} is not a directory")
    for name in (ADAPTER_CONFIG, ADAPTER_WEIGHTS):
        if not (folder / name).is_file():
            raise AdapterError(f"lora_path: {path} has no {name} (a PEFT adapter folder is expected)")
    try:
        config = json.loads((folder / ADAPTER_CONFIG).read_text())
    except json.JSONDecodeError as e:
        raise AdapterError(f"lora_path: {folder / ADAPTER_CONFIG} is not JSON ({e})") from None
    if config.get("peft_type", "LORA") != "LORA":
        raise AdapterError(f"lora_path: {path} is a {config.get('peft_type')} adapter; only LORA is supported")
    return folder


class AdapterSet:
    def __init__(self, base: torch.nn.Module):
        self.base = base
        self.peft = None  # a PeftModel once an adapter is loaded
        self.loaded: dict[str, AdapterInfo] = {}
        self.keys: dict[str, str] = {}  # served name -> peft adapter name
        self._loads = 0
        self.generation = 0  # bumps on every load/unload, so cached KV states of old weights are never reused

    def load(self, name: str, path: str) -> AdapterInfo:
        from peft import PeftModel

        folder = check_folder(path)
        version = read_policy_version(folder)
        if name in self.loaded:
            self.unload(name)
        self._loads += 1
        key = f"a{self._loads}"
        try:
            if self.peft is None:
                self.peft = PeftModel.from_pretrained(self.base, str(folder), adapter_name=key, is_trainable=False)
            else:
                self.peft.load_adapter(str(folder), adapter_name=key, is_trainable=False)
        except (ValueError, KeyError, RuntimeError, OSError) as e:
            # A shape mismatch or unknown target module: the adapter was made for another base model.
            self._drop_partial(key)
            raise AdapterError(f"lora_path: {path} does not fit the served model: {e}") from None
        self.peft.eval()
        info = AdapterInfo(name, str(folder.resolve()), version)
        self.loaded[name] = info
        self.keys[name] = key
        self.generation += 1
        log.info("loaded adapter %s (policy_version %d) from %s", name, version, folder)
        return info

    def _drop_partial(self, key: str) -> None:
        if self.peft is not None and key in self.peft.peft_config:
            self.peft.delete_adapter(key) if len(self.peft.peft_config) > 1 else self._unwrap()
        elif self.peft is not None and not self.loaded:
            self._unwrap()

    def _unwrap(self) -> None:
        self.base = self.peft.unload()
        self.peft = None

    def unload(self, name: str) -> None:
        if name not in self.loaded:
            raise AdapterError(f"lora_name: no adapter named {name!r} is loaded")
        del self.loaded[name]
        key = self.keys.pop(name)
        if self.loaded:
            self.peft.delete_adapter(key)
        else:
            self._unwrap()
        self.generation += 1
        log.info("unloaded adapter %s", name)

    def owner(self, name: str | None) -> str | None:
        """Who computed a KV cache: None for the base model, else this load of the adapter (`a<n>`, new on every
        load, so a replaced adapter's caches never match the new weights)."""
        return None if name is None else self.keys[name]

    def version(self, name: str | None) -> int:
        return 0 if name is None else self.loaded[name].policy_version

    @contextlib.contextmanager
    def active(self, name: str | None) -> Iterator[torch.nn.Module]:
        """The module to run for `name` (None = the base model), with the right adapter switched on."""
        if self.peft is None:
            if name is not None:
                raise AdapterError(f"model: no adapter named {name!r} is loaded")
            yield self.base
            return
        if name is None:
            with self.peft.disable_adapter():
                yield self.peft
            return
        if name not in self.loaded:
            raise AdapterError(f"model: no adapter named {name!r} is loaded")
        self.peft.set_adapter(self.keys[name])
        yield self.peft
