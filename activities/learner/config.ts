/**
 * The learner's config file, written in one place for every job the learner does (a GRPO run, an SFT run, a canary's
 * scorer). Python owns what it accepts (native/debugrl_native/learner/config.py; the JSON Schema fixture that
 * tests/learner-schema.test.ts checks this against): a field left out here is Python's default, so no default is
 * written twice.
 */
import * as path from 'node:path';
import type { LearnerSpec } from '../../common/training';

/** A run's learner settings beyond its spec: the init adapter (the run's copy; also the KL reference) and the BC
 * weight (activities/rl-init.ts). */
export interface LearnerRunOptions {
  initAdapter?: string;
  bcWeight?: number;
}

/** What the inference server says about its tokenizer (protocol.py ServingFacts): the learner checks its own against
 * them at start-up and refuses to start when they differ (activities/learner/tokenizer-agreement.ts). */
export interface ServingFacts {
  vocab_size?: number | null;
  special_tokens: Record<string, number>;
  chat_messages?: { role: 'system' | 'user' | 'assistant'; content: string }[];
  chat_token_ids?: number[] | null;
}

export interface LearnerJob {
  /** Where adapters are written (<outputDir>/v<N> after a train step, <outputDir>/<name> when saved by name). */
  outputDir: string;
  /** Every step's metrics as TensorBoard events here. */
  tensorboardDir?: string;
  maxPolicyLag?: number;
  rl?: LearnerRunOptions;
  serving?: ServingFacts;
}

/** The model the learner loads: the checkpoint directory when one is given (its architecture read from its
 * config.json by the learner, families.py), else the embedded server's SmolLM2 folder, or the tiny random MoE. */
export function modelSource(spec: LearnerSpec, dataDir: string): Record<string, unknown> {
  if (spec.modelDir) return { kind: 'hf_directory', path: spec.modelDir };
  if (spec.model === 'smollm2') return { kind: 'hf_directory', path: path.join(dataDir, 'models', 'smollm2-135m-instruct') };
  return { kind: 'tiny_qwen3_moe' };
}

/** The checkpoint directory the learner reads its tokenizer from, or null (the tiny random MoE has none). */
export function learnerModelDir(spec: LearnerSpec, dataDir: string): string | null {
  const src = modelSource(spec, dataDir);
  return src.kind === 'hf_directory' ? String(src.path) : null;
}

/** LoRA alpha for a rank: twice the rank, Python's default pair (config.py LoraConfig: rank 16, alpha 32) at every rank,
 * so an adapter's scale (alpha / rank) does not change with its rank. The learner config and the check of an init
 * adapter (activities/rl-init.ts) both use this one rule. */
export function loraAlpha(rank: number): number {
  return 2 * rank;
}

/** The learner config for a spec and a job. */
export function learnerConfig(spec: LearnerSpec, dataDir: string, job: LearnerJob): Record<string, unknown> {
  const rl = job.rl ?? {};
  return {
    model: modelSource(spec, dataDir),
    lora: { rank: spec.loraRank, alpha: loraAlpha(spec.loraRank) },
    loss: {
      kl_coef: spec.klCoef,
      ...(job.maxPolicyLag !== undefined ? { max_policy_lag: job.maxPolicyLag } : {}),
      offpolicy: { mode: spec.offpolicyMode ?? 'seed_clamp' },
      ...(rl.bcWeight !== undefined ? { bc_coef: rl.bcWeight } : {}),
      ...(spec.debugNegateAdvantages ? { debug_negate_advantages: true } : {}),
    },
    packing: { max_tokens: spec.maxTokens },
    optim: { lr: spec.lr },
    ...(spec.dtype ? { dtype: spec.dtype } : {}),
    output_dir: job.outputDir,
    ...(job.tensorboardDir ? { tensorboard_dir: job.tensorboardDir } : {}),
    initial_version: spec.initialVersion,
    base_model_name: spec.model,
    // RL from an adapter: the learner starts from it and measures its KL against it (frozen, on the same base)
    ...(rl.initAdapter ? { init_adapter: rl.initAdapter, reference_adapter: rl.initAdapter } : {}),
    ...(job.serving ? { serving: job.serving } : {}),
  };
}

/** A GRPO run's learner config: adapters under <runDir>/adapters, TensorBoard events under <runDir>/tensorboard
 * (`tensorboard --logdir <runDir>/tensorboard`). */
export function learnerConfigFor(spec: LearnerSpec, runDir: string, dataDir: string, maxPolicyLag: number, rl: LearnerRunOptions = {}, serving?: ServingFacts): Record<string, unknown> {
  return learnerConfig(spec, dataDir, { outputDir: path.join(runDir, 'adapters'), tensorboardDir: path.join(runDir, 'tensorboard'), maxPolicyLag, rl, serving });
}
