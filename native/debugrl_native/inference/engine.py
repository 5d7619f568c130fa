"""One chat completion, start to finish: render the prompt, check it fits, decode with a KV cache (constrained or
not), and build the OpenAI-shaped reply with token ids and logprobs.

Everything that touches the model runs under one lock: the machine has two cores, and two generations at once would
only slow both down (and adapter switching is global state).

KV cache reuse. An episode's next prompt is the previous prompt plus the reply plus an observation, so the engine
keeps the last request's KV cache and token ids and, when the new prompt shares a prefix with them (same adapter,
same adapter generation), crops the cache to that prefix and prefills only the rest. On a 2-core CPU this turns a
multi-second re-prefill of a long conversation into the cost of the new tokens.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from dataclasses import dataclass, field

import torch

from .adapters import AdapterSet
from .constrained import ToolCallConstraint
from .models import LoadedModel
from .protocol import BASE_MODEL_ALIAS, ChatRequest, flatten
from .sampling import SamplingParams, choose_token, token_logprobs
from .tool_format import parse_reply, template_messages
from .vocab import Vocab

log = logging.getLogger("debugrl.inference")

# Without max_tokens a reply may take this many tokens (bounded further by the context). Enough for any tool call
# the harness expects; a runaway free-text reply on a 2-core CPU would otherwise take minutes.
DEFAULT_MAX_TOKENS = 512


class RequestError(Exception):
    """The request cannot be served as asked: HTTP `status` with a message for the client."""

    def __init__(self, status: int, message: str, param: str | None = None):
        super().__init__(message)
        self.status, self.message, self.param = status, message, param


@dataclass
class Generation:
    token_ids: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    top: list[list[tuple[int, float]]] = field(default_factory=list)
    finish_reason: str = "length"
    prefill_tokens: int = 0  # prompt tokens actually run through the model (the rest came from the cache)
    prefill_s: float = 0.0
    decode_s: float = 0.0


class Engine:
    def __init__(self, loaded: LoadedModel, prefix_cache: bool = True):
        self.loaded = loaded
        self.tokenizer = loaded.tokenizer
        self.vocab = Vocab.from_tokenizer(loaded.tokenizer)
        self.adapters = AdapterSet(loaded.model)
        self.lock = threading.Lock()
        self.prefix_cache = prefix_cache
        self._cache = None
        self._cache_ids: list[int] = []
        self._cache_key: tuple | None = None

    # -- prompt ---------------------------------------------------------------------------------------------------

    def encode(self, text: str) -> list[int]:
        return self.tokenizer(text, add_special_tokens=False)["input_ids"]

    def render(self, req: ChatRequest) -> list[int]:
        messages = []
        for m in req.messages:
            d = {"role": "system" if m.role == "developer" else m.role, "content": flatten(m.content)}
            if m.role == "assistant" and m.tool_calls:
                d["tool_calls"] = [c.model_dump() for c in m.tool_calls]
            messages.append(d)
        tools = None
        if req.effective_tool_choice != "none":
            tools = [t.model_dump(exclude_none=True) for t in req.tools or []]
        text = self.tokenizer.apply_chat_template(
            template_messages(messages, tools), tokenize=False, add_generation_prompt=True
        )
        return self.encode(text)

    # -- model ----------------------------------------------------------------------------------------------------

    def _forward(self, model: torch.nn.Module, ids: list[int], last_only: bool) -> torch.Tensor:
        """Run ids after the cached ones; returns logits [len(ids), V] (or [1, V] with last_only)."""
        out = model(
            input_ids=torch.tensor([ids], dtype=torch.long),
            cache=self._cache,  # transformers 5 renamed past_key_values to cache
            use_cache=True,
            logits_to_keep=1 if last_only else 0,
        )
        self._cache = out.cache
        self._cache_ids.extend(ids)
        return out.logits[0]

    def _prefill(self, model: torch.nn.Module, prompt: list[int], key: tuple) -> tuple[torch.Tensor, int]:
        from transformers import DynamicCache

        keep = 0
        if self.prefix_cache and self._cache is not None and self._cache_key == key:
            limit = min(len(self._cache_ids), len(prompt) - 1)  # at least one token must run to get logits
            while keep < limit and self._cache_ids[keep] == prompt[keep]:
                keep += 1
        if keep == 0:
            self._cache = DynamicCache(config=model.config)
            self._cache_ids = []
        elif keep < len(self._cache_ids):
            self._cache.crop(-(len(self._cache_ids) - keep))  # negative: how many trailing tokens to drop
            del self._cache_ids[keep:]
        self._cache_key = key
        return self._forward(model, prompt[keep:], last_only=True)[-1], len(prompt) - keep

    @torch.inference_mode()
    def generate(
        self,
        prompt: list[int],
        max_tokens: int,
        params: SamplingParams,
        seed: int,
        adapter: str | None,
        constraint: ToolCallConstraint | None = None,
        top_logprobs: int = 0,
    ) -> Generation:
        """Decode up to max_tokens after prompt. Call with self.lock held."""
        gen = Generation()
        rng = torch.Generator().manual_seed(seed)
        key = (adapter, self.adapters.generation)
        with self.adapters.active(adapter) as model:
            try:
                self._decode(model, gen, prompt, key, max_tokens, params, rng, constraint, top_logprobs)
            except BaseException:
                # A half-updated KV cache must never be reused.
                self._cache, self._cache_ids, self._cache_key = None, [], None
                raise
        return gen

    def _decode(self, model, gen: Generation, prompt, key, max_tokens, params, rng, constraint, top_logprobs) -> None:
        t0 = time.perf_counter()
        logits, gen.prefill_tokens = self._prefill(model, prompt, key)
        gen.prefill_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        while True:
            left = max_tokens - len(gen.token_ids)
            if constraint is not None and constraint.done:
                gen.finish_reason = "tool_calls"
                break
            if left <= 0:
                break
            lp = token_logprobs(logits, params.temperature)
            run = self._next_tokens(lp, params, rng, constraint, left)[:left]
            # Logprobs: the first token from the current logits, each later one from the logits after the one
            # before it, which the forward pass below produces. The last token of a finished reply needs no
            # forward pass (nothing will be predicted from it).
            if constraint is not None:
                for t in run:
                    constraint.advance(t)
            ends = (constraint is not None and constraint.done) or (
                constraint is None and run[-1] in self.vocab.eos_ids
            ) or len(gen.token_ids) + len(run) >= max_tokens
            feed = run[:-1] if ends else run
            step_logits = self._forward(model, feed, last_only=False) if feed else None
            lps = [lp] + [token_logprobs(step_logits[i], params.temperature) for i in range(len(run) - 1)]
            for t, dist in zip(run, lps):
                gen.token_ids.append(t)
                gen.logprobs.append(float(dist[t]))
                if top_logprobs:
                    top = torch.topk(dist, top_logprobs)
                    gen.top.append(list(zip(top.indices.tolist(), top.values.tolist())))
            if ends:
                if constraint is not None:
                    gen.finish_reason = "tool_calls" if constraint.done else "length"
                else:
                    gen.finish_reason = "stop" if run[-1] in self.vocab.eos_ids else "length"
                break
            logits = step_logits[-1]
        gen.decode_s = time.perf_counter() - t0

    def _next_tokens(self, lp, params, rng, constraint, left: int) -> list[int]:
        if constraint is None:
            return [choose_token(lp, params, rng)]
        forced = constraint.forced_run()
        if forced:
            return forced
        tid = choose_token(lp, params, rng, allowed=constraint.allowed_ids(),
                           accepts=lambda i: constraint.accepts(i, left))
        return [tid] if tid is not None else constraint.finish_ids()

    # -- requests -------------------------------------------------------------------------------------------------

    def complete(self, req: ChatRequest) -> dict:
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
        with self.lock:
            if adapter is not None and adapter not in self.adapters.loaded:
                raise RequestError(404, f"model: {req.model!r} is neither 'default' nor a loaded adapter "
                                        f"(loaded: {sorted(self.adapters.loaded) or 'none'})", "model")
            version = self.adapters.version(adapter)
            gen = self.generate(prompt, max_tokens, params, seed, adapter, constraint, req.top_logprobs or 0)
        log.info(
            "completion model=%s prompt=%d (prefilled %d in %.2fs) completion=%d in %.2fs finish=%s",
            req.model, len(prompt), gen.prefill_tokens, gen.prefill_s, len(gen.token_ids), gen.decode_s,
            gen.finish_reason,
        )
        return self._reply(req, prompt, gen, version, parse_calls=req.effective_tool_choice != "none")

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
                      "total_tokens": len(prompt) + len(gen.token_ids)},
            "policy_version": version,
        }
        if req.return_token_ids:
            choice["token_ids"] = list(gen.token_ids)
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
