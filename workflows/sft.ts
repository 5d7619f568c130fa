/**
 * SftWorkflow: fine-tune a LoRA adapter (SmolLM2's, or a --model checkpoint's) on a corpus folder (`debugrl sft build`), one activity per epoch on
 * the GPU worker's queue, the held-out loss after every epoch, then the epoch with the lowest held-out loss published
 * to the embedded server as `sft-v<N>`. Resumable: each finished epoch is on disk (its adapter and optimizer state),
 * so a crashed worker or a retried activity continues from the last finished epoch.
 *   temporal workflow start --type SftWorkflow --task-queue debugrl --input '{"corpusDir":"/path/to/corpus"}'
 */
import { defineQuery, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import { z } from 'zod';
import { parseInput } from '../common/boundary';
import { NON_RETRYABLE } from '../common/failures';
import { SftEpochs, SftSettings, sftSettingsOf } from '../common/sft-settings';
import type { createSftTrainActivities, SftEpochResult } from '../activities/learner';

export const SftInput = z
  .object({
    corpusDir: z.string().min(1),
    epochs: SftEpochs,
    ...SftSettings,
    /** The GPU activity worker's queue (workers/learner-worker.ts). */
    learnerTaskQueue: z.string().min(1).default('gpu'),
    publish: z.boolean().default(true),
  })
  .strict();
export type SftInput = z.input<typeof SftInput>;

export interface SftResult {
  runId: string;
  epochs: SftEpochResult[];
  chosenEpoch: number;
  adapter: { name: string; path: string } | null;
}

export const sftProgressQuery = defineQuery<{ epochsPlanned: number; epochsDone: number; epochs: SftEpochResult[] }>('progress');

export async function SftWorkflow(raw: unknown): Promise<SftResult> {
  const cfg = parseInput(SftInput, raw, 'SftWorkflow');
  const runId = workflowInfo().workflowId.replace(/[^\w.-]/g, '_').slice(0, 100);
  const gpu = proxyActivities<ReturnType<typeof createSftTrainActivities>>({
    taskQueue: cfg.learnerTaskQueue,
    startToCloseTimeout: '6h',
    heartbeatTimeout: '5m',
    retry: { initialInterval: '5s', maximumInterval: '2m', maximumAttempts: 5, nonRetryableErrorTypes: NON_RETRYABLE.learner },
  });
  const epochs: SftEpochResult[] = [];
  setHandler(sftProgressQuery, () => ({ epochsPlanned: cfg.epochs, epochsDone: epochs.length, epochs }));
  for (let epoch = 1; epoch <= cfg.epochs; epoch++) {
    epochs.push(
      await gpu.sftEpoch({ runId, corpusDir: cfg.corpusDir, epoch, epochs: cfg.epochs, ...sftSettingsOf(cfg) }),
    );
  }
  // the epoch with the lowest held-out loss (the last one when nothing was held out)
  const chosen = epochs.reduce((best, e) => (e.heldOutLoss !== null && best.heldOutLoss !== null && e.heldOutLoss < best.heldOutLoss ? e : best), epochs.at(-1)!);
  const adapter = cfg.publish ? await gpu.publishSftAdapter({ runId, adapterPath: chosen.adapterPath }) : null;
  return { runId, epochs, chosenEpoch: chosen.epoch, adapter };
}
