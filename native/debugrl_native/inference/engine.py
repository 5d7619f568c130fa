"""One chat completion, start to finish: render the prompt, check it fits, hand it to the scheduler (which decodes it
together with every other active request, see scheduler.py), and build the OpenAI-shaped reply with token ids,
logprobs and cache usage.

Token in. A request may carry `prefix_token_ids` (the previous turn's prompt and completion ids) and
`prefix_message_index` (the assistant message they end with): the prompt is then those ids as they are, followed by
the rendering of the messages after that one (token_prefix.py), so a multi-turn prompt extends the ids the model saw
and produced instead of a re-rendered transcript. An id outside the vocabulary is a 400; a prefix that leaves no
room in the context is the usual context-length 400.

Usage. Besides OpenAI's `prompt_tokens_details.cached_tokens`, each reply's usage carries `debugrl: {cached_tokens,
prefilled_tokens, stale_kv_tokens}`: prompt tokens whose KV came from the prefix store (kv_cache.py: this
conversation's earlier turns, or the system prompt and tool list another conversation computed) or from a running
sequence, those run through the model, and those reused from another adapter version (0 by construction).

Adapter loads and unloads run on the scheduler thread between two steps (`load_adapter`, `unload_adapter`); two
concurrent loads or unloads of the same name are refused with a 409 while the first is pending.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from collections.abc import Callable

import torch

from .adapters import AdapterInfo, AdapterSet
from .constrained import ToolCallConstraint
from .kv_cache import DEFAULT_KV_CACHE_MB, KVShape, KVStore
from .models import LoadedModel
from .protocol import BASE_MODEL_ALIAS, ChatRequest, flatten
from .sampling import SamplingParams
from .scheduler import DEFAULT_MAX_BATCH, DEFAULT_STEP_TOKENS, Generation, RequestError, Scheduler, Sequence
from .token_prefix import SpliceError, covered_pairs, first_unknown_id, suffix_text, without_closed_turn
from .tool_format import parse_reply, template_messages
from .vocab import Vocab

__all__ = ["Engine", "Generation", "RequestError", "DEFAULT_MAX_TOKENS"]

log = logging.getLogger("debugrl.inference")

# Without max_tokens a reply may take this many tokens (bounded further by the context). Enough for any tool call
# the harness expects; a runaway free-text reply on a 2-core CPU would otherwise take minutes.
DEFAULT_MAX_TOKENS = 512


class Engine:
    def __init__(self, loaded: LoadedModel, prefix_cache: bool = True, kv_cache_mb: int = DEFAULT_KV_CACHE_MB,
                 step_tokens: int = DEFAULT_STEP_TOKENS, max_batch: int = DEFAULT_MAX_BATCH):
        self.loaded = loaded
        self.tokenizer = loaded.tokenizer
        self.vocab = Vocab.from_tokenizer(loaded.tokenizer)
        self.adapters = AdapterSet(loaded.model)
        dtype = next(loaded.model.parameters()).dtype
        self.store = KVStore(KVShape.of(loaded.model.config, dtype), kv_cache_mb * 1024 * 1024)
        self.scheduler = Scheduler(self.adapters, self.store, self.vocab, prefix_cache=prefix_cache,
                                   step_tokens=step_tokens, max_batch=max_batch)
        self._changing: set[str] = set()  # adapter names with a load/unload pending
        backend = getattr(loaded.tokenizer, "_tokenizer", None)  # a fast tokenizer's tokenizers.Tokenizer
        self._backend_encode = getattr(backend, "encode", None)
        self._changing_lock = threading.Lock()
        # The texts of the ids that end a reply, which a chat template also writes to close an assistant turn.
        self._end_of_turn = {t: self.tokenizer.decode([t]) for t in self.vocab.eos_ids}

    # -- prompt ---------------------------------------------------------------------------------------------------

    def encode(self, text: str) -> list[int]:
        """Token ids of text, no special tokens added. A fast tokenizer's Rust backend is called directly: the same
        ids as tokenizer(text, add_special_tokens=False) (test_inference_batching.py), without the Python wrapper's
        ~0.15 ms per call, which the tool-call constraint pays for every candidate whose completion it must count."""
        if self._backend_encode is not None:
            return self._backend_encode(text, add_special_tokens=False).ids
        return self.tokenizer(text, add_special_tokens=False)["input_ids"]

    def render(self, req: ChatRequest) -> list[int]:
        """The prompt's ids: the whole conversation rendered, or with `prefix_token_ids` those ids followed by the
        rendering of what comes after the message they end with (token_prefix.py)."""
        messages = []
        for m in req.messages:
            d = {"role": "system" if m.role == "developer" else m.role, "content": flatten(m.content)}
            if m.role == "assistant" and m.tool_calls:
                d["tool_calls"] = [c.model_dump() for c in m.tool_calls]
            messages.append(d)
        tools = None
        if req.effective_tool_choice != "none":
            tools = [t.model_dump(exclude_none=True) for t in req.tools or []]

        def text_of(pairs: list[dict]) -> str:
            return self.tokenizer.apply_chat_template(pairs, tokenize=False, add_generation_prompt=True)

        pairs = template_messages(messages, tools)
        if req.prefix_token_ids is None or req.prefix_message_index is None:
            return self.encode(text_of(pairs))
        return self._spliced(req.prefix_token_ids, text_of, pairs,
                             covered_pairs(lambda ms: template_messages(ms, tools), messages, req.prefix_message_index))

    def _spliced(self, prefix: list[int], text_of: Callable[[list[dict]], str], pairs: list[dict],
                 covered: int) -> list[int]:
        bad = first_unknown_id(prefix, len(self.vocab.token_bytes))
        if bad is not None:
            raise RequestError(400, f"prefix_token_ids.{bad}: {prefix[bad]} is not a token id of this model (its "
                                    f"vocabulary has {len(self.vocab.token_bytes)} ids)", "prefix_token_ids")
        try:
            suffix = suffix_text(text_of, pairs, covered)
        except SpliceError as e:
            raise RequestError(400, f"prefix_token_ids: {e}; send the messages without it", "prefix_token_ids") from None
        return list(prefix) + self.encode(without_closed_turn(suffix, prefix[-1], self._end_of_turn))

    # -- model ----------------------------------------------------------------------------------------------------

    def generate(
        self,
        prompt: list[int],
        max_tokens: int,
        params: SamplingParams,
        seed: int,
        adapter: str | None,
        constraint: ToolCallConstraint | None = None,
        top_logprobs: int = 0,
        alive: Callable[[], bool] | None = None,
    ) -> Generation:
        """Decode up to max_tokens after prompt, batched with whatever else is running. `alive`, polled while waiting,
        returns False once the client has gone: the sequence is then cancelled and RequestError(499) raised."""
        seq = Sequence(prompt, max_tokens, params, torch.Generator().manual_seed(seed), adapter, constraint,
                       top_logprobs)
        self.scheduler.submit(seq)
        while not seq.done.wait(0.2):
            if alive is not None and not alive():
                self.scheduler.cancel(seq)
        if seq.error is not None:
            raise seq.error
        return seq.gen

    def load_adapter(self, name: str, path: str) -> AdapterInfo:
        def load() -> AdapterInfo:
            old = self.adapters.keys.get(name)
            info = self.adapters.load(name, path)
            if old is not None:
                self.store.drop_owner(old)
            return info

        return self._change(name, load)

    def unload_adapter(self, name: str) -> None:
        def unload() -> None:
            if name not in self.adapters.loaded:
                raise RequestError(404, f"lora_name: no adapter named {name!r} is loaded")
            old = self.adapters.keys[name]
            self.adapters.unload(name)
            self.store.drop_owner(old)

        self._change(name, unload)

    def _change(self, name: str, fn):
        with self._changing_lock:
            if name in self._changing:
                raise RequestError(409, f"lora_name: adapter {name!r} is already being loaded or unloaded; "
                                        "retry once that request has answered")
            self._changing.add(name)
        try:
            return self.scheduler.call(fn, {name})
        finally:
            with self._changing_lock:
                self._changing.discard(name)

    def health(self) -> dict:
        return {"kv_cache": self.store.health(), "scheduler": self.scheduler.health()}

    # -- requests -------------------------------------------------------------------------------------------------

    def complete(self, req: ChatRequest, alive: Callable[[], bool] | None = None) -> dict:
        adapter = None if req.model in (BASE_MODEL_ALIAS, self.loaded.name) else req.model
        prompt = self.render(req)
        ctx = self.loaded.context_length
        asked = req.max_tokens or req.max_completion_tokens
        max_tokens = asked if asked is not None else max(1, min(DEFAULT_MAX_TOKENS, ctx - len(prompt)))
        if len(prompt) + max_tokens > ctx:
            # The wording follows vLLM's, which OpenAI clients (ours included) recognise as a context overflow.
            raise RequestError(
                400,
                f"This model's maximum context length is {ctx} tokens. However, you requested "
                f"{len(prompt) + max_tokens} tokens ({len(prompt)} in the messages, {max_tokens} in the completion). "
                "Please reduce the length of the messages or completion.",
                "messages",
            )
        constraint = None
        if req.effective_tool_choice == "required":
            constraint = ToolCallConstraint(self.vocab, self.encode, req.constrained_tools, self.tokenizer.eos_token_id)
            need = constraint.min_tokens()
            if max_tokens < need:
                raise RequestError(
                    400, f"max_tokens: {max_tokens} is too small for a constrained tool call, which needs {need}",
                    "max_tokens")
        seed = req.seed if req.seed is not None else int.from_bytes(os.urandom(4), "little")
        params = SamplingParams(req.temperature, req.top_p)
        if adapter is not None and adapter not in self.adapters.loaded:  # checked again when admitted
            raise RequestError(404, f"model: {req.model!r} is neither 'default' nor a loaded adapter "
                                    f"(loaded: {sorted(self.adapters.loaded) or 'none'})", "model")
        gen = self.generate(prompt, max_tokens, params, seed, adapter, constraint, req.top_logprobs or 0, alive)
        log.info(
            "completion model=%s prompt=%d (cached %d, prefilled %d in %.2fs, queued %.2fs) completion=%d in %.2fs "
            "finish=%s",
            req.model, len(prompt), gen.cached_tokens, gen.prefill_tokens, gen.prefill_s, gen.queued_s,
            len(gen.token_ids), gen.decode_s, gen.finish_reason,
        )
        return self._reply(req, prompt, gen, gen.policy_version, parse_calls=req.effective_tool_choice != "none")

    def _reply(self, req: ChatRequest, prompt: list[int], gen: Generation, version: int, parse_calls: bool) -> dict:
        body_ids = [t for t in gen.token_ids if t not in self.vocab.eos_ids]
        text = self.tokenizer.decode(body_ids, skip_special_tokens=False)
        content, calls = parse_reply(text) if parse_calls else (text.strip() or None, [])
        if gen.finish_reason == "tool_calls" and not calls:  # pragma: no cover - constrained decoding guarantees one
            raise RuntimeError(f"constrained decoding produced no parsable tool call: {text!r}")
        finish = "tool_calls" if calls else gen.finish_reason
        choice: dict = {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": content,
                "tool_calls": [
                    {"id": f"call_{uuid.uuid4().hex[:24]}", "type": "function",
                     "function": {"name": c.name, "arguments": c.arguments}}
                    for c in calls
                ],
            },
            "finish_reason": finish,
            "logprobs": None,
        }
        if req.logprobs:
            choice["logprobs"] = {"content": [self._logprob_entry(t, lp, top) for t, lp, top in
                                              zip(gen.token_ids, gen.logprobs, gen.top or [[]] * len(gen.token_ids))]}
        reply = {
            "id": f"chatcmpl-{uuid.uuid4().hex}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": req.model,
            "choices": [choice],
            "usage": {"prompt_tokens": len(prompt), "completion_tokens": len(gen.token_ids),
                      "total_tokens": len(prompt) + len(gen.token_ids),
                      "prompt_tokens_details": {"cached_tokens": gen.cached_tokens},
                      "debugrl": {"cached_tokens": gen.cached_tokens, "prefilled_tokens": gen.prefill_tokens,
                                  "stale_kv_tokens": gen.stale_kv_tokens}},
            "policy_version": version,
        }
        if req.return_token_ids:
            choice["token_ids"] = list(gen.token_ids)
            # Our extension: per token, whether constrained decoding forced it (not the policy's choice; the learner
            # leaves such tokens out of its loss). Absent from vLLM's replies: every token then counts as sampled.
            choice["token_forced"] = list(gen.forced)
            reply["prompt_token_ids"] = list(prompt)
        return reply

    def _logprob_entry(self, token_id: int, logprob: float, top: list[tuple[int, float]]) -> dict:
        def describe(t: int, lp: float) -> dict:
            raw = self.vocab.token_bytes[t]
            text = self.vocab.text(t, self.tokenizer)
            return {"token": text, "logprob": lp, "bytes": list(raw if raw is not None else text.encode())}

        entry = describe(token_id, logprob)
        entry["top_logprobs"] = [describe(t, lp) for t, lp in top]
        return entry
