"""PEFT's default LoRA initialisation, shared by the dense adapters (lora.py) and the experts' packed ones
(experts.py): Kaiming-uniform A and zero B, so B @ A = 0 and the adapted model starts exactly at the base."""

from __future__ import annotations

import math

import torch
from torch import nn


def init_lora_a(a: torch.Tensor) -> None:
    """Kaiming-uniform with a = sqrt(5), in place (PEFT's and nn.Linear's default); B starts at zero."""
    nn.init.kaiming_uniform_(a, a=math.sqrt(5))
