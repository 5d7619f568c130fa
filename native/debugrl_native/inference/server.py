"""The embedded policy server: an OpenAI-compatible HTTP API over one CPU model, standard library only.

    python -m debugrl_native.inference.server --host 127.0.0.1 --port 8765 [--model smollm2|tiny-random|DIR]
        [--adapters-dir DIR] [--threads N] [--no-prefix-cache] [--kv-cache-mb MB] [--dtype float32|bfloat16]
        [--step-tokens N] [--max-batch N]

Endpoints:
    GET  /health                   {"status":"ok","model","adapters":[{name,path,policy_version}],"policy_version",
                                    "kv_cache":{entries,nodes,tokens,sequence_tokens,bytes,budget_bytes,hits,
                                    misses,evictions,cached_tokens,prefilled_tokens,stale_kv_tokens},
                                    "scheduler":{active,waiting,steps,...}}
    GET  /v1/models                the base model as "default" plus one entry per loaded adapter
    POST /v1/chat/completions      see engine.py, tool_format.py (text format), constrained.py and token_prefix.py
                                   (our `prefix_token_ids` extension: the next prompt as the previous turn's ids)
    POST /v1/load_lora_adapter     {"lora_name","lora_path"} (vLLM's API); replaces an adapter of the same name
    POST /v1/unload_lora_adapter   {"lora_name"}

Errors are JSON `{"error":{"message","type","param","code"}}`: 400 for a bad request (the message starts with the
field's dotted path), 404 for an unknown model/adapter or path, 409 for a second load/unload of an adapter whose
first is still pending, 500 for a bug. `--adapters-dir` loads every PEFT folder found directly under DIR at start,
named after its folder.

Concurrency. Requests are served on threads; each hands its sequence to the scheduler thread (scheduler.py), which
decodes every active sequence together, one forward per step, and keeps each conversation's KV cache within
`--kv-cache-mb` (env DEBUGRL_KV_CACHE_MB). Adapter loads/unloads run on that thread between two steps. A client that
disconnects while waiting has its sequence cancelled. Logs go to stderr; the line
`debugrl-inference ready on http://HOST:PORT` says the server accepts requests.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import select
import socket
import sys
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import torch
from pydantic import BaseModel, ValidationError

from .adapters import ADAPTER_CONFIG, AdapterError
from .engine import Engine, RequestError
from .kv_cache import DEFAULT_KV_CACHE_MB
from .models import load_model
from .protocol import BASE_MODEL_ALIAS, ChatRequest, LoadAdapterRequest, UnloadAdapterRequest, validation_message
from .scheduler import DEFAULT_MAX_BATCH, DEFAULT_STEP_TOKENS

log = logging.getLogger("debugrl.inference")

MAX_BODY_BYTES = 32 * 1024 * 1024  # a 8k-token conversation is well under 1 MB; this only stops runaway uploads


def health(engine: Engine) -> dict:
    adapters = [vars(a) for a in engine.adapters.loaded.values()]
    return {
        "status": "ok",
        "model": engine.loaded.name,
        "context_length": engine.loaded.context_length,
        "adapters": adapters,
        # The newest policy this server can serve: what a status line wants to show.
        "policy_version": max((a["policy_version"] for a in adapters), default=0),
        **engine.health(),
    }


def models(engine: Engine) -> dict:
    data = [{"id": BASE_MODEL_ALIAS, "object": "model", "owned_by": "debugrl", "root": engine.loaded.name,
             "parent": None, "max_model_len": engine.loaded.context_length}]
    for a in engine.adapters.loaded.values():
        data.append({"id": a.name, "object": "model", "owned_by": "debugrl", "root": a.path,
                     "parent": BASE_MODEL_ALIAS, "max_model_len": engine.loaded.context_length,
                     "policy_version": a.policy_version})
    return {"object": "list", "data": data}


def make_handler(engine: Engine):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "debugrl-inference/0.1"

        def log_message(self, fmt, *args):  # the default writes to stderr unconditionally; route it through logging
            log.debug("%s %s", self.address_string(), fmt % args)

        def _send(self, status: int, body: dict) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _error(self, status: int, message: str, param: str | None = None) -> None:
            kind = {400: "BadRequestError", 404: "NotFoundError", 409: "ConflictError"}.get(status, "InternalServerError")
            log.info("HTTP %d %s %s: %s", status, self.command, self.path, message)
            self._send(status, {"error": {"message": message, "type": kind, "param": param, "code": status}})

        def _body(self, model: type[BaseModel]):
            length = int(self.headers.get("content-length") or 0)
            if length > MAX_BODY_BYTES:
                raise RequestError(400, f"body: {length} bytes is more than the {MAX_BODY_BYTES} accepted")
            raw = self.rfile.read(length) if length else b""
            try:
                payload = json.loads(raw or b"null")
            except json.JSONDecodeError as e:
                raise RequestError(400, f"body: not valid JSON ({e})") from None
            try:
                return model.model_validate(payload)
            except ValidationError as e:
                raise RequestError(400, validation_message(e)) from None

        def _client_connected(self) -> bool:
            """False once the peer has closed its end (readable with no data). A client sends nothing more while
            it waits for its reply, so readability means EOF (or a pipelined request, which we then also keep)."""
            try:
                readable, _, _ = select.select([self.connection], [], [], 0)
                if not readable:
                    return True
                return bool(self.connection.recv(1, socket.MSG_PEEK))
            except OSError:
                return False

        def do_GET(self):
            path = self.path.split("?", 1)[0].rstrip("/")
            if path == "/health":
                self._send(200, health(engine))
            elif path == "/v1/models":
                self._send(200, models(engine))
            elif path == "/v1/tokenizer_facts":
                # what the learner checks its own tokenizer against before a run (learner/tokenizer_check.py): the
                # vocabulary size, the special tokens, and this server's ids for the fixed probe conversation
                from ..learner.tokenizer_check import serving_facts_of

                self._send(200, serving_facts_of(engine.tokenizer).model_dump())
            else:
                self._error(404, f"no such endpoint: GET {path}")

        def do_POST(self):
            path = self.path.split("?", 1)[0].rstrip("/")
            try:
                if path == "/v1/chat/completions":
                    reply = engine.complete(self._body(ChatRequest), alive=self._client_connected)
                    self._send(200, reply)
                elif path == "/v1/load_lora_adapter":
                    req = self._body(LoadAdapterRequest)
                    info = engine.load_adapter(req.lora_name, req.lora_path)
                    self._send(200, {"status": "ok", **vars(info)})
                elif path == "/v1/unload_lora_adapter":
                    req = self._body(UnloadAdapterRequest)
                    engine.unload_adapter(req.lora_name)
                    self._send(200, {"status": "ok", "name": req.lora_name})
                else:
                    # Drain the body so the connection stays usable.
                    self.rfile.read(int(self.headers.get("content-length") or 0))
                    self._error(404, f"no such endpoint: POST {path}")
            except RequestError as e:
                if e.status == 499:  # the client is gone: nobody to answer
                    log.info("POST %s: client disconnected, its sequence was cancelled", path)
                    self.close_connection = True
                    return
                self._error(e.status, e.message, e.param)
            except AdapterError as e:
                self._error(400, str(e), "lora_path")
            except Exception as e:  # a bug: say so, keep serving
                log.error("%s %s failed:\n%s", self.command, path, traceback.format_exc())
                self._error(500, f"internal error: {type(e).__name__}: {e}")

    return Handler


def load_adapters_dir(engine: Engine, folder: Path) -> None:
    if not folder.is_dir():
        raise SystemExit(f"--adapters-dir {folder} is not a directory")
    for sub in sorted(folder.iterdir()):
        if (sub / ADAPTER_CONFIG).is_file():
            engine.adapters.load(sub.name, str(sub))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m debugrl_native.inference.server", description=__doc__.split("\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--model", default="smollm2",
                    help="smollm2, tiny-random, or a checkpoint folder (config.json + safetensors + tokenizer files)")
    ap.add_argument("--adapters-dir", type=Path, default=None, help="load every PEFT adapter folder found here")
    ap.add_argument("--threads", type=int, default=2, help="torch CPU threads (the target machine has 2 cores)")
    ap.add_argument("--no-prefix-cache", action="store_true", help="re-prefill every prompt from scratch")
    ap.add_argument("--kv-cache-mb", type=int, default=int(os.environ.get("DEBUGRL_KV_CACHE_MB") or DEFAULT_KV_CACHE_MB),
                    help="memory for finished conversations' KV caches, LRU-evicted (env DEBUGRL_KV_CACHE_MB)")
    ap.add_argument("--dtype", choices=["float32", "bfloat16"], default="float32",
                    help="weights and KV cache dtype (benchmarks/inference.md: bfloat16's logprobs miss the canary)")
    ap.add_argument("--step-tokens", type=int, default=DEFAULT_STEP_TOKENS,
                    help="new tokens per forward step (decode first, prefill chunks share the rest)")
    ap.add_argument("--max-batch", type=int, default=DEFAULT_MAX_BATCH, help="sequences decoded together at most")
    ap.add_argument("--log-level", default="INFO")
    args = ap.parse_args(argv)

    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    torch.set_num_threads(max(1, args.threads))
    log.info("loading model %s", args.model)
    loaded = load_model(args.model)
    if args.dtype == "bfloat16":
        loaded.model.to(torch.bfloat16)
    engine = Engine(loaded, prefix_cache=not args.no_prefix_cache, kv_cache_mb=args.kv_cache_mb,
                    step_tokens=args.step_tokens, max_batch=args.max_batch)
    if args.adapters_dir:
        load_adapters_dir(engine, args.adapters_dir)
    server = ThreadingHTTPServer((args.host, args.port), make_handler(engine))
    server.daemon_threads = True
    host, port = server.server_address[:2]
    print(f"debugrl-inference ready on http://{host}:{port} model={engine.loaded.name}", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
