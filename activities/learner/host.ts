/**
 * The GPU worker keeps one learner service for the run being trained, in step with PostgreSQL's last committed step.
 *
 * The learner's state is whatever the last COMMITTED step left: `training_steps` names the adapter folder (with its
 * optimizer state beside it). Before every step the service is checked against it, and started or restarted from it
 * when it is missing, dead, on another run, or ahead of it (a step that trained but never committed). So a crash
 * anywhere in a step leaves the version to rise by exactly one when the step is retried.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Config } from '../../common/config';
import type { LearnerSpec } from '../../common/training';
import { Failure, failure } from '../../common/failures';
import { withHeartbeat } from '../heartbeat';
import { learnerConfigFor, type LearnerRunOptions, type ServingFacts } from './config';
import { LearnerProcess } from './process';

/** Where a training run keeps its learner config, batches, adapters and TensorBoard events. */
export const trainingRunDir = (dataDir: string, runId: string) => path.join(dataDir, 'training', runId);

export class LearnerHost {
  private proc: LearnerProcess | null = null;
  private key = '';
  private version = -1;

  /** `serving`: the inference server's tokenizer facts for a spec, checked by the learner at start-up
   * (tokenizer-agreement.ts); absent, or resolving to undefined, skips the check. */
  constructor(
    private readonly config: Config,
    private readonly serving?: (spec: LearnerSpec) => Promise<ServingFacts | undefined>,
  ) {}

  runDir(runId: string): string {
    return trainingRunDir(this.config.DEBUGRL_DATA_DIR, runId);
  }

  /** A service for this run at exactly `version` (from `adapter`, or fresh when there is none). */
  async ensure(runId: string, spec: LearnerSpec, maxPolicyLag: number, committed: { version: number; adapterPath: string | null }, rl: LearnerRunOptions = {}): Promise<LearnerProcess> {
    const key = JSON.stringify([runId, spec, maxPolicyLag, rl]);
    const wantVersion = committed.version;
    if (this.proc?.alive && this.key === key && this.version === wantVersion) return this.proc;
    await this.proc?.stop().catch(() => undefined);
    const dir = this.runDir(runId);
    fs.mkdirSync(dir, { recursive: true });
    const ready = await withHeartbeat(
      async () => {
        const serving = await this.serving?.(spec);
        const cfgFile = path.join(dir, 'learner.json');
        fs.writeFileSync(cfgFile, JSON.stringify(learnerConfigFor(spec, dir, this.config.DEBUGRL_DATA_DIR, maxPolicyLag, rl, serving), null, 2));
        const args = ['--config', cfgFile, ...(committed.adapterPath ? ['--adapter', committed.adapterPath] : [])];
        this.proc = new LearnerProcess(this.config.DEBUGRL_PYTHON, args, this.config.DEBUGRL_LEARNER_NPROC);
        this.key = key;
        return this.proc.ready;
      },
      { everyMs: 5000, details: { phase: 'learner-start' } },
    ).catch((e: unknown) => {
      // a model directory or tokenizer the learner refuses at start-up: it would refuse it again on every retry
      const m = e instanceof Error ? /(TokenizerMismatch|UnsupportedCheckpoint): (.*)/.exec(e.message) : null;
      throw m ? failure(Failure.InvalidInput, `the learner refused to start: ${m[2]}`) : e;
    });
    this.version = Number(ready.policy_version);
    if (this.version !== wantVersion) throw new Error(`learner started at version ${this.version}, expected ${wantVersion}`);
    return this.proc!;
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
