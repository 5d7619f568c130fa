"""The GPU benchmark script runs end to end on CPU with --tiny (it was prepared here; no GPU ran it)."""

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "learner_gpu.py"


def test_gpu_script_tiny_mode_runs_on_cpu():
    spec = importlib.util.spec_from_file_location("learner_gpu", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    (result,) = mod.main(["--tiny", "--steps", "1", "--impls", "grouped"])
    assert result["impl"] == "grouped" and result["seq"] == 256 and result["tokens_per_s"] > 0
    # active parameters of the real Qwen3-Coder-30B-A3B shape, 48 layers: about 3.3 B ("A3B")
    src = mod.TinyQwen3MoeSource(vocab_size=151936, hidden_size=2048, num_hidden_layers=48, num_attention_heads=32,
                                 num_key_value_heads=4, head_dim=128, num_experts=128, num_experts_per_tok=8,
                                 moe_intermediate_size=768)
    assert 3.0e9 < mod.active_params(src) < 3.6e9
