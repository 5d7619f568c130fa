/**
 * The GPU activity worker's side of training: it owns the Python learner service (native/…/learner/service.py, JSON
 * lines over stdin/stdout) and runs the training step on it.
 *
 * The learner's state is whatever the last COMMITTED step left: PostgreSQL `training_steps` names the adapter folder
 * (with its optimizer state beside it). Before every step the service is checked against it, and started or
 * restarted from it when it is missing, dead, on another run, or ahead of it (a step that trained but never
 * committed). So a crash anywhere in a step leaves the version to rise by exactly one when the step is retried.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { heartbeat } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { parseInput } from '../common/boundary';
import type { Config } from '../common/config';
import { REPO_ROOT } from '../common/config';
import { TrajectoryRecord } from '../common/trajectory';
import { LearnerSpec, type GroupRecord, type RejectReason, type StepResult } from '../common/training';
import { learnerRunOptions, materializeInit, replayExamples, rlInputFailure } from './rl-init';
import { commitStep, findStep, lastCommitted, loadRecords, readGroups, type TrainingStoreDeps } from './training-store';

// --- the service process ---------------------------------------------------------------------------------------------

interface Pending {
  resolve(msg: ServiceMessage): void;
  reject(err: Error): void;
}

export interface ServiceMessage {
  type: string;
  request_id?: string | null;
  [k: string]: unknown;
}

export class LearnerServiceError extends Error {
  constructor(
    message: string,
    readonly kind: 'invalid_request' | 'internal' | 'exited',
  ) {
    super(message);
  }
}

/** One learner service process: spawn, wait for `ready`, request/response by request id, notice its death. */
export class LearnerProcess {
  private pending = new Map<string, Pending>();
  private seq = 0;
  private exited: string | null = null;
  readonly ready: Promise<ServiceMessage>;
  private readonly proc: ChildProcess;
  readonly stderrTail: string[] = [];

  constructor(python: string, args: string[], nproc = 1, env: NodeJS.ProcessEnv = process.env) {
    // Under torchrun every rank runs the service; only rank 0 reads stdin and writes the protocol to stdout.
    const launcher = nproc > 1 ? ['-m', 'torch.distributed.run', '--standalone', `--nproc-per-node=${nproc}`] : [];
    this.proc = spawn(python, [...launcher, '-m', 'debugrl_native.learner.service', ...args], { cwd: path.join(REPO_ROOT, 'native'), env: { ...env, PYTHONUNBUFFERED: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let readyResolve!: (m: ServiceMessage) => void;
    let readyReject!: (e: Error) => void;
    this.ready = new Promise((res, rej) => ((readyResolve = res), (readyReject = rej)));
    this.ready.catch(() => undefined);
    readline.createInterface({ input: this.proc.stdout! }).on('line', (line) => {
      let msg: ServiceMessage;
      try {
        msg = JSON.parse(line) as ServiceMessage;
      } catch {
        this.stderrTail.push(`(stdout, not JSON) ${line.slice(0, 200)}`);
        return;
      }
      if (msg.type === 'ready') return readyResolve(msg);
      const p = msg.request_id ? this.pending.get(msg.request_id) : undefined;
      if (!p) return;
      this.pending.delete(msg.request_id!);
      if (msg.type === 'error') p.reject(new LearnerServiceError(String(msg.message), msg.error_kind as 'invalid_request' | 'internal'));
      else p.resolve(msg);
    });
    readline.createInterface({ input: this.proc.stderr! }).on('line', (line) => {
      this.stderrTail.push(line);
      if (this.stderrTail.length > 40) this.stderrTail.shift();
    });
    this.proc.on('exit', (code, signal) => {
      this.exited = `learner service exited (${signal ?? `code ${code}`}): ${this.stderrTail.slice(-5).join(' | ')}`;
      const err = new LearnerServiceError(this.exited, 'exited');
      readyReject(err);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    });
  }

  get alive(): boolean {
    return this.exited === null;
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  request(msg: Record<string, unknown>): Promise<ServiceMessage> {
    if (this.exited) return Promise.reject(new LearnerServiceError(this.exited, 'exited'));
    const id = String(msg.request_id ?? `r${++this.seq}`);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.proc.stdin!.write(JSON.stringify({ ...msg, request_id: id }) + '\n');
    });
  }

  /** Ask it to stop; kill it if it does not within the grace period. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.alive) return;
    const gone = new Promise<void>((r) => this.proc.once('exit', () => r()));
    this.proc.stdin!.end();
    const t = setTimeout(() => this.proc.kill('SIGKILL'), graceMs);
    await gone;
    clearTimeout(t);
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    this.proc.kill(signal);
  }
}

/** A run's learner settings beyond its spec: the init adapter (the run's copy; also the KL reference) and the BC
 * weight (activities/rl-init.ts). */
export interface LearnerRunOptions {
  initAdapter?: string;
  bcWeight?: number;
}

/** The learner's config file for a run's spec (see native/debugrl_native/learner/config.py). */
export function learnerConfigFor(spec: LearnerSpec, runDir: string, dataDir: string, maxPolicyLag: number, rl: LearnerRunOptions = {}): Record<string, unknown> {
  const model = spec.model === 'smollm2' ? { kind: 'hf_directory', path: spec.modelDir ?? path.join(dataDir, 'models', 'smollm2-135m-instruct') } : { kind: 'tiny_qwen3_moe' };
  return {
    model,
    lora: { rank: spec.loraRank, alpha: 2 * spec.loraRank },
    loss: {
      kl_coef: spec.klCoef,
      max_policy_lag: maxPolicyLag,
      offpolicy: { mode: spec.offpolicyMode ?? 'seed_clamp' },
      ...(rl.bcWeight !== undefined ? { bc_coef: rl.bcWeight } : {}),
      ...(spec.debugNegateAdvantages ? { debug_negate_advantages: true } : {}),
    },
    packing: { max_tokens: spec.maxTokens },
    optim: { lr: spec.lr },
    output_dir: path.join(runDir, 'adapters'),
    // every step's metrics as TensorBoard events: `tensorboard --logdir <runDir>/tensorboard`
    tensorboard_dir: path.join(runDir, 'tensorboard'),
    initial_version: spec.initialVersion,
    base_model_name: spec.model,
    // RL from an adapter: the learner starts from it and measures its KL against it (frozen, on the same base)
    ...(rl.initAdapter ? { init_adapter: rl.initAdapter, reference_adapter: rl.initAdapter } : {}),
  };
}

/** Keeps one learner service for the run being trained, in step with PostgreSQL's last committed step. */
export class LearnerHost {
  private proc: LearnerProcess | null = null;
  private key = '';
  private version = -1;

  constructor(private readonly config: Config) {}

  runDir(runId: string): string {
    return path.join(this.config.DEBUGRL_DATA_DIR, 'training', runId);
  }

  /** A service for this run at exactly `version` (from `adapter`, or fresh when there is none). */
  async ensure(runId: string, spec: LearnerSpec, maxPolicyLag: number, committed: { version: number; adapterPath: string | null }, rl: LearnerRunOptions = {}): Promise<LearnerProcess> {
    const key = JSON.stringify([runId, spec, maxPolicyLag, rl]);
    const wantVersion = committed.version;
    if (this.proc?.alive && this.key === key && this.version === wantVersion) return this.proc;
    await this.proc?.stop().catch(() => undefined);
    const dir = this.runDir(runId);
    fs.mkdirSync(dir, { recursive: true });
    const cfgFile = path.join(dir, 'learner.json');
    fs.writeFileSync(cfgFile, JSON.stringify(learnerConfigFor(spec, dir, this.config.DEBUGRL_DATA_DIR, maxPolicyLag, rl), null, 2));
    const args = ['--config', cfgFile, ...(committed.adapterPath ? ['--adapter', committed.adapterPath] : [])];
    this.proc = new LearnerProcess(this.config.DEBUGRL_PYTHON, args, this.config.DEBUGRL_LEARNER_NPROC);
    this.key = key;
    const beat = setInterval(() => heartbeat({ phase: 'learner-start' }), 5000);
    try {
      const ready = await this.proc.ready;
      this.version = Number(ready.policy_version);
    } finally {
      clearInterval(beat);
    }
    if (this.version !== wantVersion) throw new Error(`learner started at version ${this.version}, expected ${wantVersion}`);
    return this.proc;
  }

  /** The version the service holds after a train step (not yet committed). */
  advanced(version: number): void {
    this.version = version;
  }

  /** Forget the service's state: the next ensure() restarts it from the committed checkpoint. */
  invalidate(): void {
    this.version = -1;
  }

  current(): LearnerProcess | null {
    return this.proc?.alive ? this.proc : null;
  }

  async close(): Promise<void> {
    await this.proc?.stop().catch(() => undefined);
    this.proc = null;
  }
}

// --- from trajectory records to the learner's batch ------------------------------------------------------------------

interface LearnerStep {
  prompt_ids: number[];
  completion_ids: number[];
  completion_logprobs: number[];
  policy_version: number;
}

type Built = { ok: true; steps: LearnerStep[]; minVersion: number } | { ok: false; reason: RejectReason; detail: string };

/** Token in, token out: the server's own prompt ids, completion ids and logprobs, turn by turn. Nothing is
 * re-tokenized and nothing is padded; a trajectory that lacks them, or whose logprobs do not line up with its tokens,
 * is refused with its reason. (Chains, where a turn's prompt extends the previous one, are built by the learner.) */
export function learnerSteps(raw: unknown): Built {
  const parsed = TrajectoryRecord.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: 'no-turns', detail: `not a trajectory record: ${parsed.error.issues[0]?.message}` };
  const turns = parsed.data.turns;
  if (!turns.length) return { ok: false, reason: 'no-turns', detail: 'the episode has no model turns' };
  const steps: LearnerStep[] = [];
  for (const { turn, assistant: a } of turns) {
    if (!a.promptTokenIds?.length || !a.tokenIds) return { ok: false, reason: 'missing-token-ids', detail: `turn ${turn}: the server returned no prompt/completion token ids` };
    if (!a.logprobs) return { ok: false, reason: 'missing-logprobs', detail: `turn ${turn}: ${a.tokenIds.length} completion tokens but no logprobs` };
    if (a.logprobs.length !== a.tokenIds.length) return { ok: false, reason: 'misaligned-logprobs', detail: `turn ${turn}: ${a.tokenIds.length} completion tokens but ${a.logprobs.length} logprobs` };
    const bad = a.logprobs.findIndex((x) => !Number.isFinite(x) || x > 0);
    if (bad >= 0) return { ok: false, reason: 'misaligned-logprobs', detail: `turn ${turn}: logprob ${a.logprobs[bad]} at token ${bad} is not a log probability` };
    steps.push({ prompt_ids: a.promptTokenIds, completion_ids: a.tokenIds, completion_logprobs: a.logprobs, policy_version: a.policyVersion });
  }
  return { ok: true, steps, minVersion: Math.min(...steps.map((s) => s.policy_version)) };
}

// --- activities ------------------------------------------------------------------------------------------------------

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

function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

export function createLearnerActivities(deps: TrainingStoreDeps & { config: Config }, host: LearnerHost) {
  /** Beat while a long promise runs (reading Kafka, training). */
  async function beating<T>(phase: string, p: Promise<T>): Promise<T> {
    const t = setInterval(() => heartbeat({ phase }), 5000);
    try {
      return await p;
    } finally {
      clearInterval(t);
    }
  }

  return {
    /** One optimizer step: read groups from Kafka, refuse stale groups and malformed trajectories (counted), train,
     * and commit the result with the consumed offsets in one transaction. Idempotent by step id. */
    async trainStep(raw: TrainStepInput): Promise<StepResult> {
      const input = parseInput(TrainStepInput, raw, 'trainStep');
      const stepId = `${input.runId}:${input.step}`;
      const done = await findStep(deps.pool, stepId);
      if (done) return done;
      const t0 = Date.now();
      const committed = await lastCommitted(deps.pool, input.runId);
      if (committed.step !== input.step - 1) {
        throw ApplicationFailure.nonRetryable(`step ${input.step} of run ${input.runId} asked for, but the last committed step is ${committed.step}`, 'StepOutOfOrder');
      }
      const versionBefore = committed.step > 0 ? committed.version : input.learner.initialVersion;
      let rl: LearnerRunOptions;
      try {
        const init = input.initAdapter ? materializeInit(deps.config.DEBUGRL_DATA_DIR, input.runId, input.initAdapter, input.learner) : null;
        rl = learnerRunOptions(init, input.bc?.weight);
      } catch (e) {
        throw rlInputFailure(e);
      }
      const learner = await host.ensure(input.runId, input.learner, input.maxPolicyLag, { version: versionBefore, adapterPath: committed.adapterPath }, rl);

      const read = await beating('read-groups', readGroups(deps, input.runId, input.groups, 120_000, () => heartbeat({ phase: 'read-groups' })));
      const rejectedGroups: StepResult['rejectedGroups'] = [];
      const rejectedTrajectories: StepResult['rejectedTrajectories'] = [];
      const lagHistogram: Record<string, number> = {};
      const accepted: { group: GroupRecord; trajectories: { episodeId: string; reward: number; passed: boolean; steps: LearnerStep[] }[] }[] = [];
      const records = await loadRecords(deps.pool, read.groups.flatMap((g) => g.episodes.map((e) => e.episodeId)));
      for (const group of read.groups) {
        for (const e of group.episodes) {
          const lag = String(versionBefore - e.minPolicyVersion);
          lagHistogram[lag] = (lagHistogram[lag] ?? 0) + 1;
        }
        const lag = versionBefore - Math.min(...group.episodes.map((e) => e.minPolicyVersion));
        if (lag > input.maxPolicyLag) {
          rejectedGroups.push({ groupId: group.groupId, reason: 'policy-lag', lag });
          continue;
        }
        const trajectories = [];
        for (const e of group.episodes) {
          const built = learnerSteps(records.get(e.episodeId));
          if (!built.ok) rejectedTrajectories.push({ episodeId: e.episodeId, reason: built.reason, detail: built.detail });
          else trajectories.push({ episodeId: e.episodeId, reward: e.reward, passed: e.passed, steps: built.steps });
        }
        if (trajectories.length) accepted.push({ group, trajectories });
        else rejectedGroups.push({ groupId: group.groupId, reason: rejectedTrajectories.at(-1)!.reason, lag });
      }

      // Lag 0: the learner's logprobs of the stored tokens must match what the server reported for them.
      let lag0: StepResult['lag0'] = null;
      if (input.learner.checkLogprobs) {
        const fresh = accepted.flatMap((a) => a.trajectories).flatMap((t) => t.steps).filter((s) => s.policy_version === versionBefore && s.completion_ids.length);
        if (fresh.length) {
          const scored = await beating('score', learner.request({ type: 'score', sequences: fresh.map((s) => ({ prompt_ids: s.prompt_ids, completion_ids: s.completion_ids })) }));
          const diffs = (scored.logprobs as number[][]).flatMap((lps, i) => lps.map((lp, j) => Math.abs(lp - fresh[i].completion_logprobs[j])));
          lag0 = { tokens: diffs.length, meanAbsLogRatio: mean(diffs), maxAbsLogRatio: Math.max(...diffs) };
        }
      }

      let versionAfter = versionBefore;
      let adapterPath: string | null = committed.adapterPath;
      let metrics: StepResult['metrics'] = null;
      if (accepted.length) {
        let sftExamples: ReturnType<typeof replayExamples> = [];
        try {
          // the same examples on a retry of this step: chosen by the run's seed and the step number
          if (input.bc) sftExamples = replayExamples(input.bc.corpus, input.bc.seed, input.step, input.bc.examples);
        } catch (e) {
          throw rlInputFailure(e);
        }
        const batch = {
          groups: accepted.map((a) => ({ group_id: a.group.groupId, trajectories: a.trajectories.map((t) => ({ trajectory_id: t.episodeId, reward: t.reward, steps: t.steps })) })),
          ...(sftExamples.length ? { sft_examples: sftExamples } : {}),
        };
        const file = path.join(host.runDir(input.runId), 'batches', `step-${input.step}.json`);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, JSON.stringify(batch));
        let res: ServiceMessage;
        try {
          res = await beating('train', learner.request({ type: 'train_step', request_id: stepId, batch: { kind: 'file', path: file } }));
        } catch (e) {
          host.invalidate();
          if (e instanceof LearnerServiceError && e.kind === 'invalid_request') throw ApplicationFailure.nonRetryable(`learner refused step ${stepId}: ${e.message}`, 'InvalidBatch');
          throw e;
        }
        versionAfter = Number(res.policy_version);
        adapterPath = (res.adapter_path as string | null) ?? null;
        metrics = res.metrics as Record<string, number>;
        host.advanced(versionAfter);
      }
      const all = accepted.flatMap((a) => a.trajectories);
      const result: StepResult = {
        stepId,
        step: input.step,
        versionBefore,
        versionAfter,
        adapterPath,
        trainedGroups: accepted.map((a) => a.group.groupId),
        rejectedGroups,
        rejectedTrajectories,
        lagHistogram,
        meanReward: mean(all.map((t) => t.reward)),
        passRate: mean(all.map((t) => (t.passed ? 1 : 0))),
        metrics,
        lag0,
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
