/**
 * SFT on the GPU worker: one activity per epoch (`sftEpoch`), each ONE learner request (`sft_epoch`: the learner
 * shuffles, batches and schedules the learning rate; protocol.py SftEpochRequest holds the only defaults), and the
 * chosen epoch published (`publishSftAdapter`) through the same path as a GRPO version (publish.ts: DEBUGRL_PUBLISH_URL
 * and the canary).
 *
 * Resumable: a finished epoch's result is on disk (<data>/sft/<run>/epoch-<N>.json, its adapter and optimizer state in
 * epoch-<N>/) and is returned as it is; an unfinished one starts again from the previous epoch's adapter.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { parseInput } from '../../common/boundary';
import type { Config } from '../../common/config';
import { Failure, failure } from '../../common/failures';
import { SftSettings } from '../../common/sft-settings';
import { LearnerSpec } from '../../common/training';
import { withHeartbeat } from '../heartbeat';
import { learnerConfig } from './config';
import { LearnerProcess, LearnerServiceError } from './process';
import { CANARY_TOLERANCE, publish, publishUrl } from './publish';

export const SftEpochInput = z
  .object({
    runId: z.string().regex(/^[\w.-]{1,100}$/),
    corpusDir: z.string().min(1),
    epoch: z.number().int().min(1),
    epochs: z.number().int().min(1),
    ...SftSettings,
  })
  .strict();
export type SftEpochInput = z.input<typeof SftEpochInput>;

export interface SftEpochResult {
  epoch: number;
  steps: number;
  trainLoss: number;
  heldOutLoss: number | null;
  adapterPath: string;
}

/** The learner's shuffle seed for a run: FNV-1a of its id, so a retried epoch (and a rerun with the same id) trains
 * the same batches. */
export function sftSeed(runId: string): number {
  let h = 0x811c9dc5;
  for (const c of Buffer.from(runId)) h = Math.imul(h ^ c, 0x01000193) >>> 0;
  return h & 0x7fffffff;
}

const nonEmpty = (file: string) => fs.existsSync(file) && fs.readFileSync(file, 'utf8').trim().length > 0;

export function createSftTrainActivities(deps: { config: Config }) {
  const runDir = (runId: string) => path.join(deps.config.DEBUGRL_DATA_DIR, 'sft', runId);
  /** The initial adapter's weights copied into the run's folder as `init/`, without its optimizer state
   * (service.py restores trainer_state.pt when the folder has one): a new fine-tune, not a resumed one. */
  const initFrom = (dir: string, adapter: string): string => {
    const src = path.isAbsolute(adapter) ? adapter : path.join(deps.config.DEBUGRL_DATA_DIR, 'adapters', adapter);
    if (!fs.existsSync(src)) throw failure(Failure.InvalidInput, `initAdapter ${adapter}: no adapter folder at ${src}`);
    const init = path.join(dir, 'init');
    if (!fs.existsSync(init)) {
      fs.cpSync(src, `${init}.tmp`, { recursive: true, filter: (f) => path.basename(f) !== 'trainer_state.pt' });
      fs.renameSync(`${init}.tmp`, init);
    }
    return init;
  };
  return {
    /** One epoch on a learner service started for it. */
    async sftEpoch(raw: SftEpochInput): Promise<SftEpochResult> {
      const input = parseInput(SftEpochInput, raw, 'sftEpoch');
      const dir = runDir(input.runId);
      const doneFile = path.join(dir, `epoch-${input.epoch}.json`);
      if (fs.existsSync(doneFile)) return JSON.parse(fs.readFileSync(doneFile, 'utf8')) as SftEpochResult;
      const trainFile = path.join(input.corpusDir, 'train.tokens.jsonl');
      if (!nonEmpty(trainFile)) throw failure(Failure.InvalidInput, `${input.corpusDir}: no train.tokens.jsonl examples (an empty corpus, or not a corpus folder)`);
      const heldOutFile = path.join(input.corpusDir, 'heldout.tokens.jsonl');
      fs.mkdirSync(dir, { recursive: true });
      const spec = LearnerSpec.parse({ ...(input.loraRank !== undefined ? { loraRank: input.loraRank } : {}), ...(input.modelDir ? { modelDir: input.modelDir } : {}) });
      const cfgFile = path.join(dir, 'learner.json');
      fs.writeFileSync(cfgFile, JSON.stringify(learnerConfig(spec, deps.config.DEBUGRL_DATA_DIR, { outputDir: dir }), null, 2));
      const prev = input.epoch > 1 ? path.join(dir, `epoch-${input.epoch - 1}`) : input.initAdapter ? initFrom(dir, input.initAdapter) : null;
      if (prev && !fs.existsSync(prev)) throw new Error(`epoch ${input.epoch - 1}'s adapter ${prev} is missing; rerun that epoch`);
      const learner = new LearnerProcess(deps.config.DEBUGRL_PYTHON, ['--config', cfgFile, ...(prev ? ['--adapter', prev] : [])], deps.config.DEBUGRL_LEARNER_NPROC);
      // the heartbeat re-sends the latest progress, so a long epoch neither times out nor hides which step it is at
      const progress: Record<string, unknown> = { epoch: input.epoch, phase: 'starting the learner' };
      try {
        const r = await withHeartbeat(
          async () => {
            await learner.ready;
            progress.phase = 'training';
            return learner.request(
              {
                type: 'sft_epoch',
                train_path: trainFile,
                ...(nonEmpty(heldOutFile) ? { heldout_path: heldOutFile } : {}),
                epoch: input.epoch,
                epochs: input.epochs,
                seed: sftSeed(input.runId),
                ...(input.lr !== undefined ? { lr: input.lr } : {}),
                ...(input.warmupSteps !== undefined ? { warmup_steps: input.warmupSteps } : {}),
                ...(input.batchExamples !== undefined ? { batch_examples: input.batchExamples } : {}),
              },
              (m) => Object.assign(progress, { step: m.step, of: m.of, meanLoss: m.mean_loss, phase: m.step === m.of ? 'held-out loss' : 'training' }),
            );
          },
          { everyMs: 5000, details: progress },
        );
        const result: SftEpochResult = { epoch: input.epoch, steps: Number(r.steps), trainLoss: Number(r.train_loss), heldOutLoss: r.held_out_loss === null ? null : Number(r.held_out_loss), adapterPath: String(r.adapter_path) };
        fs.writeFileSync(`${doneFile}.tmp`, JSON.stringify(result));
        fs.renameSync(`${doneFile}.tmp`, doneFile);
        return result;
      } catch (e) {
        if (e instanceof LearnerServiceError && e.kind === 'invalid_request') throw failure(Failure.InvalidInput, `learner refused the corpus: ${e.message}`);
        throw e;
      } finally {
        await learner.stop().catch(() => undefined);
      }
    },

    /** Copy the chosen epoch's adapter to <data>/adapters/sft-v<N> (N: one more than the highest there) and publish it
     * under that name (publish.ts), its canary scored by a learner started from the copy with the run's config.
     * Idempotent per run: a retry finds the run's own copy and publishes it again. */
    async publishSftAdapter(input: { runId: string; adapterPath: string }): Promise<{ name: string; path: string }> {
      const root = path.join(deps.config.DEBUGRL_DATA_DIR, 'adapters');
      fs.mkdirSync(root, { recursive: true });
      const marker = path.join(runDir(input.runId), 'published.json');
      let target: { name: string; path: string };
      if (fs.existsSync(marker)) target = JSON.parse(fs.readFileSync(marker, 'utf8')) as { name: string; path: string };
      else {
        const n = 1 + Math.max(0, ...fs.readdirSync(root).map((d) => /^sft-v(\d+)$/.exec(d)?.[1]).filter(Boolean).map(Number));
        target = { name: `sft-v${n}`, path: path.join(root, `sft-v${n}`) };
        fs.cpSync(input.adapterPath, `${target.path}.tmp`, { recursive: true });
        fs.renameSync(`${target.path}.tmp`, target.path);
        fs.writeFileSync(marker, JSON.stringify(target));
      }
      const cfgFile = path.join(runDir(input.runId), 'learner.json');
      if (!fs.existsSync(cfgFile)) throw failure(Failure.InvalidInput, `SFT run ${input.runId} has no learner config at ${cfgFile} (publish an adapter trained by sftEpoch on this worker's data folder)`);
      const scorer = new LearnerProcess(deps.config.DEBUGRL_PYTHON, ['--config', cfgFile, '--adapter', target.path], deps.config.DEBUGRL_LEARNER_NPROC);
      try {
        const ready = await withHeartbeat(() => scorer.ready, { everyMs: 5000, details: { phase: 'canary learner start' } });
        await publish(publishUrl(deps.config), { name: target.name, adapterPath: target.path, version: Number(ready.policy_version), tolerance: CANARY_TOLERANCE, scorer: async () => scorer });
      } finally {
        await scorer.stop().catch(() => undefined);
      }
      return target;
    },
  };
}

export type SftTrainActivities = ReturnType<typeof createSftTrainActivities>;
