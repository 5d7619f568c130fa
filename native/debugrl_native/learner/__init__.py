"""The LoRA / GRPO learner: models, adapters, grouped-GEMM experts, the seed's loss, packing, FSDP and the service.

Import the concept modules directly (`from debugrl_native.learner.loss import policy_loss`); this package file stays
empty so that importing the protocol does not pull in torch.
"""
