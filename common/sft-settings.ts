/** The SFT knobs a caller may set, shared by the workflow's input (workflows/sft.ts) and the epoch activity's
 * (activities/learner/sft-epoch.ts). Every one is optional: absent means the learner's default (protocol.py
 * SftEpochRequest for the schedule and batch, config.py LoraConfig for the rank), the only place they are written.
 * Pure (workflow code imports it). */
import { z } from 'zod';

/** How many epochs a fine-tune runs. The one SFT number the learner has no default for (an sft_epoch request always
 * names its epoch count), so the default is written here, once, for SftWorkflow and the STaR loop. */
export const SftEpochs = z.number().int().min(1).max(100).default(3);

/** The training hyperparameters, the part of the settings the STaR loop passes on (it chooses the initial adapter
 * itself, and its student is always the embedded server's model). */
export const SftHyperparameters = {
  /** Peak learning rate of the warm-up + cosine schedule. */
  lr: z.number().positive().max(1).optional(),
  warmupSteps: z.number().int().min(0).optional(),
  /** Examples per optimizer step (each step packs them into microbatches of at most packing.max_tokens). */
  batchExamples: z.number().int().min(1).optional(),
  loraRank: z.number().int().min(1).max(256).optional(),
};

export const SftSettings = {
  ...SftHyperparameters,
  /** A transformers checkpoint directory to fine-tune (absolute path; its architecture read from its config.json);
   * absent: the embedded server's SmolLM2. */
  modelDir: z.string().regex(/^\//, 'must be an absolute path').optional(),
  /** Epoch 1 starts from this adapter's weights (a name under <data>/adapters, or a folder) with a fresh optimizer;
   * null: from the base model. */
  initAdapter: z.string().min(1).nullable().default(null),
};

/** The settings an epoch is sent, as given (an absent one stays absent). */
export function sftSettingsOf(cfg: { lr?: number; warmupSteps?: number; batchExamples?: number; loraRank?: number; modelDir?: string; initAdapter: string | null }) {
  return {
    ...(cfg.lr !== undefined ? { lr: cfg.lr } : {}),
    ...(cfg.warmupSteps !== undefined ? { warmupSteps: cfg.warmupSteps } : {}),
    ...(cfg.batchExamples !== undefined ? { batchExamples: cfg.batchExamples } : {}),
    ...(cfg.loraRank !== undefined ? { loraRank: cfg.loraRank } : {}),
    ...(cfg.modelDir ? { modelDir: cfg.modelDir } : {}),
    ...(cfg.initAdapter ? { initAdapter: cfg.initAdapter } : {}),
  };
}
