/**
 * The training step (activity `trainStep`, on the GPU worker's queue): read the run's next groups from Kafka, build the
 * batch from their stored records, train one optimizer step on the learner, and commit the result with the consumed
 * offsets in one transaction (activities/training-store.ts). Idempotent by step id: a retried step returns the
 * committed result and trains nothing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { parseInput } from '../../common/boundary';
import type { Config } from '../../common/config';
import { Failure, failure } from '../../common/failures';
import { sumTokenChains, tokenChainOfRecord } from '../../common/token-chain';
import { LearnerSpec, type StepResult } from '../../common/training';
import { withHeartbeat } from '../heartbeat';
import { learnerRunOptions, materializeInit, replayExamples, rlInputFailure, type ReplayExample } from '../rl-init';
import { commitStep, findStep, lastCommitted, readGroups, type TrainingStoreDeps } from '../training-store';
import { loadRecords } from '../trajectory-store';
import { buildBatch, countDropped, trainBatch, type Dropped } from './batch';
import type { LearnerRunOptions } from './config';
import type { LearnerHost } from './host';
import { LearnerServiceError, type LearnerProcess, type ServiceMessage } from './process';

export const TrainStepInput = z
  .object({
    runId: z.string().min(1),
    step: z.number().int().min(1),
    groups: z.number().int().min(1),
    maxPolicyLag: z.number().int().min(0),
    learner: LearnerSpec,
    /** The run's init adapter (`sft-v<N>` or an absolute path; the run's copy once made): v0 and the KL reference. */
    initAdapter: z.string().min(1).optional(),
    /** Behaviour-cloning replay: `examples` SFT examples of `corpus` per step, chosen by `seed` and the step. */
    bc: z.object({ corpus: z.string().min(1), weight: z.number().min(0), examples: z.number().int().min(1), seed: z.number().int().min(0) }).strict().optional(),
  })
  .strict();
export type TrainStepInput = z.input<typeof TrainStepInput>;

const BEAT = 5000;

function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

/** Lag 0: the learner's logprobs of the stored tokens against what the server reported for them. */
async function lagZero(learner: LearnerProcess, steps: { prompt_ids: number[]; completion_ids: number[]; completion_logprobs: number[] }[]): Promise<StepResult['lag0']> {
  if (!steps.length) return null;
  const scored = await withHeartbeat(() => learner.request({ type: 'score', sequences: steps.map((s) => ({ prompt_ids: s.prompt_ids, completion_ids: s.completion_ids })) }), { everyMs: BEAT, details: { phase: 'score' } });
  const diffs = (scored.logprobs as number[][]).flatMap((lps, i) => lps.map((lp, j) => Math.abs(lp - steps[i]!.completion_logprobs[j]!)));
  return { tokens: diffs.length, meanAbsLogRatio: mean(diffs), maxAbsLogRatio: Math.max(...diffs) };
}

export function createLearnerActivities(deps: TrainingStoreDeps & { config: Config }, host: LearnerHost) {
  return {
    /** One optimizer step: read groups from Kafka, refuse malformed trajectories (counted), train (the learner drops
     * and names stale ones, counted), and commit the result with the consumed offsets in one transaction. */
    async trainStep(raw: TrainStepInput): Promise<StepResult> {
      const input = parseInput(TrainStepInput, raw, 'trainStep');
      const stepId = `${input.runId}:${input.step}`;
      const done = await findStep(deps.pool, stepId);
      if (done) return done;
      const t0 = Date.now();
      const committed = await lastCommitted(deps.pool, input.runId);
      if (committed.step !== input.step - 1) throw failure(Failure.StepOutOfOrder, `step ${input.step} of run ${input.runId} asked for, but the last committed step is ${committed.step}`);
      const versionBefore = committed.step > 0 ? committed.version : input.learner.initialVersion;
      let rl: LearnerRunOptions;
      let sftExamples: ReplayExample[] = [];
      try {
        const init = input.initAdapter ? materializeInit(deps.config.DEBUGRL_DATA_DIR, input.runId, input.initAdapter, input.learner) : null;
        rl = learnerRunOptions(init, input.bc?.weight);
        // the same examples on a retry of this step: chosen by the run's seed and the step number
        if (input.bc) sftExamples = replayExamples(input.bc.corpus, input.bc.seed, input.step, input.bc.examples);
      } catch (e) {
        throw rlInputFailure(e);
      }
      const learner = await host.ensure(input.runId, input.learner, input.maxPolicyLag, { version: versionBefore, adapterPath: committed.adapterPath }, rl);

      const read = await withHeartbeat(() => readGroups(deps, input.runId, input.groups, 120_000), { everyMs: BEAT, details: { phase: 'read-groups' } });
      const records = await loadRecords(deps.pool, read.groups.flatMap((g) => g.episodes.map((e) => e.episodeId)));
      const built = buildBatch(read.groups, records, versionBefore);

      const fresh = built.groups.flatMap((a) => a.trajectories).flatMap((t) => t.steps).filter((s) => s.policy_version === versionBefore && s.completion_ids.length);
      const lag0 = input.learner.checkLogprobs ? await lagZero(learner, fresh) : null;

      let versionAfter = versionBefore;
      let adapterPath: string | null = committed.adapterPath;
      let metrics: StepResult['metrics'] = null;
      let dropped: Dropped[] = [];
      if (built.groups.length) {
        // the batch travels as a file (the claim check): too large for one protocol line
        const file = path.join(host.runDir(input.runId), 'batches', `step-${input.step}.json`);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, JSON.stringify(trainBatch(built.groups, sftExamples)));
        let res: ServiceMessage;
        try {
          res = await withHeartbeat(() => learner.request({ type: 'train_step', request_id: stepId, batch: { kind: 'file', path: file } }), { everyMs: BEAT, details: { phase: 'train' } });
        } catch (e) {
          host.invalidate();
          if (e instanceof LearnerServiceError && e.kind === 'invalid_request') throw failure(Failure.InvalidBatch, `learner refused step ${stepId}: ${e.message}`);
          throw e;
        }
        versionAfter = Number(res.policy_version);
        adapterPath = (res.adapter_path as string | null) ?? null;
        metrics = res.metrics as Record<string, number>;
        dropped = (res.dropped as Dropped[] | undefined) ?? [];
        host.advanced(versionAfter);
      }
      const counted = countDropped(built.groups, dropped, input.maxPolicyLag);
      const all = counted.trained.flatMap((a) => a.trajectories);
      const result: StepResult = {
        stepId,
        step: input.step,
        versionBefore,
        versionAfter,
        adapterPath,
        trainedGroups: counted.trained.map((a) => a.group.groupId),
        rejectedGroups: [...built.rejectedGroups, ...counted.rejectedGroups],
        rejectedTrajectories: [...built.rejectedTrajectories, ...counted.rejectedTrajectories],
        lagHistogram: built.lagHistogram,
        meanReward: mean(all.map((t) => t.reward)),
        passRate: mean(all.map((t) => (t.passed ? 1 : 0))),
        metrics,
        lag0,
        tokenChain: sumTokenChains(all.map((t) => tokenChainOfRecord(records.get(t.episodeId)))),
        busyMs: Date.now() - t0,
      };
      try {
        return await commitStep(deps.pool, input.runId, result, read);
      } catch (e) {
        host.invalidate(); // the service is ahead of what committed: restart it from the checkpoint next time
        throw e;
      }
    },
  };
}

export type LearnerActivities = ReturnType<typeof createLearnerActivities>;
