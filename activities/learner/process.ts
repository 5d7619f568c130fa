/**
 * One learner service process (native/debugrl_native/learner/service.py): JSON lines over stdin/stdout. It writes
 * `ready` once, then answers every request with exactly one message carrying the request's id, preceded for a long
 * request (an SFT epoch) by `progress` messages with that id. Spawned on its own, or under torchrun (FSDP over
 * several GPUs), where only rank 0 speaks the protocol.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { REPO_ROOT } from '../../common/config';

export interface ServiceMessage {
  type: string;
  request_id?: string | null;
  [k: string]: unknown;
}

/** `invalid_request`: the learner refused the request (resending it fails the same way); `internal`: it failed;
 * `exited`: the process is gone (a crash, the OOM killer, a kill). */
export class LearnerServiceError extends Error {
  constructor(
    message: string,
    readonly kind: 'invalid_request' | 'internal' | 'exited',
  ) {
    super(message);
  }
}

interface Pending {
  resolve(msg: ServiceMessage): void;
  reject(err: Error): void;
  progress?: (msg: ServiceMessage) => void;
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
      if (msg.type === 'progress') return p.progress?.(msg);
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

  /** Send one request; resolves to its response. `onProgress` sees the request's progress messages, if any. */
  request(msg: Record<string, unknown>, onProgress?: (msg: ServiceMessage) => void): Promise<ServiceMessage> {
    if (this.exited) return Promise.reject(new LearnerServiceError(this.exited, 'exited'));
    const id = String(msg.request_id ?? `r${++this.seq}`);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, progress: onProgress });
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
