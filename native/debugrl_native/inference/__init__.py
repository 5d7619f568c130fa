"""The embedded CPU inference server: SmolLM2-135M-Instruct behind an OpenAI-compatible chat-completions API with tool
calls, constrained tool-call decoding, token ids, logprobs and hot-loaded LoRA adapters. Entry point: server.py."""
