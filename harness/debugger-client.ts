/**
 * The harness side of the debugger bridge (native/debugrl_native/debugger/bridge.py): spawns it in the sandbox and
 * speaks its JSON-lines protocol on fds 3 (commands) and 4 (replies). fds 1 and 2 carry the program's own output,
 * which is collected here, bounded, and handed out with each observation.
 *
 * Two ways to start one: `start` spawns a bridge for a known test (cold: Python, pytest and its plugins load after
 * the call); `prewarm` spawns one that loads them at once, without the test and without touching the workspace, and
 * waits. The session keeps one pre-warmed bridge aside and hands it the test at the next start_debugger (see
 * native/debugrl_native/debugger/prewarm.py for what makes that equivalent to a cold start).
 */
import * as readline from 'node:readline';
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import { killGroup, type Sandbox } from './sandbox';

/** A reply of the bridge (native/debugrl_native/debugger/protocol.py, `Reply`), strictly: a field it does not
 * declare, or a wrong type, means the two sides disagree, which is a harness bug, not something to read around. */
export const BridgeReply = z
  .object({
    id: z.number().int().nullable(),
    ok: z.boolean(),
    state: z.enum(['paused', 'running', 'ended', 'stopped', 'stale']).optional(),
    text: z.string().optional(),
    error: z.string().optional(),
    internal: z.boolean().optional(),
    trace: z.string().optional(),
    never_hit: z.array(z.string()).optional(),
    outcomes: z.record(z.string(), z.string()).optional(),
    file: z.string().optional(),
    line: z.number().int().optional(),
    function: z.string().optional(),
    reason: z.enum(['start', 'breakpoint', 'step', 'interrupted']).optional(),
  })
  .strict();
export type BridgeReply = z.infer<typeof BridgeReply>;

/** The bridge stopped answering or exited while a request was in flight. */
export class BridgeGone extends Error {
  constructor(
    message: string,
    readonly why: 'timeout' | 'exited',
  ) {
    super(message);
  }
}

export class BridgeStartError extends Error {}

/** The bridge sent a reply that does not fit the protocol. */
export class BridgeProtocolError extends Error {}

/** Program output kept between two observations, per stream. */
const KEEP_BYTES = 16 * 1024;

/** close() waits this long for a bridge's handshake before killing it. Killing bwrap in its first milliseconds,
 * before its sandboxed child has armed --die-with-parent, leaves that child running as an orphan (reproduced: about
 * 1 in 8 kills 2 ms after spawn). A cold bridge is only ever killed after its handshake; a pre-warmed one can be
 * closed right after it was spawned (a session closed at once), so it waits too. */
const READY_BEFORE_KILL_MS = 5000;

export class DebuggerClient {
  private nextId = 0;
  private pending = new Map<number, { resolve: (r: BridgeReply) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  private out = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  private kept = { stdout: 0, stderr: 0 };
  private dropped = { stdout: 0, stderr: 0 };
  private exitInfo: { code: number | null; signal: string | null } | null = null;
  private ready: Promise<void>;
  private handshaken = false;
  /** Pre-warmed bridges only: true once pytest and its plugins are loaded, false if that failed or it exited. */
  private warmed: Promise<boolean>;

  private constructor(
    private readonly child: ChildProcess,
    /** The test it runs; null for a pre-warmed bridge until `claim`. */
    private test: string | null,
  ) {
    const replies = child.stdio[4] as Readable;
    let onReady: () => void = () => undefined;
    let onFail: (e: Error) => void = () => undefined;
    this.ready = new Promise<void>((res, rej) => {
      onReady = res;
      onFail = rej;
    });
    this.ready.catch(() => undefined); // observed by start/whenWarm; a pre-warmed bridge may die unobserved
    let onWarm: (ok: boolean) => void = () => undefined;
    this.warmed = new Promise<boolean>((res) => (onWarm = res));
    readline.createInterface({ input: replies }).on('line', (line) => {
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        return; // not ours: only the bridge writes fd 4
      }
      if ((msg as { event?: string }).event === 'ready') {
        this.handshaken = true;
        return onReady();
      }
      if ((msg as { event?: string }).event === 'warm') return onWarm((msg as { ok?: unknown }).ok === true);
      const parsed = BridgeReply.safeParse(msg);
      const id = parsed.success ? parsed.data.id : (msg as { id?: unknown }).id;
      const p = typeof id === 'number' ? this.pending.get(id) : undefined;
      if (!p) return;
      clearTimeout(p.timer);
      this.pending.delete(id as number);
      if (parsed.success) p.resolve(parsed.data);
      else p.reject(new BridgeProtocolError(`malformed bridge reply: ${z.prettifyError(parsed.error).slice(0, 500)}`));
    });
    for (const name of ['stdout', 'stderr'] as const) {
      child[name]!.on('data', (chunk: Buffer) => {
        const room = KEEP_BYTES - this.kept[name];
        if (room > 0) {
          this.out[name].push(chunk.subarray(0, room));
          this.kept[name] += Math.min(room, chunk.length);
        }
        this.dropped[name] += Math.max(0, chunk.length - Math.max(room, 0));
      });
    }
    child.on('exit', (code, signal) => {
      this.exitInfo = { code, signal };
      onWarm(false);
      onFail(new BridgeStartError(`debugger bridge exited before it was ready (code ${code}, signal ${signal})`));
      for (const [, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(new BridgeGone(`the debugger process exited (code ${code}, signal ${signal})`, 'exited'));
      }
      this.pending.clear();
    });
    (child.stdio[3] as Writable).on('error', () => undefined);
  }

  /** Spawn the bridge for one pytest node id and wait for its handshake. */
  static async start(sandbox: Sandbox, nodeId: string, readyTimeoutMs = 15_000): Promise<DebuggerClient> {
    const client = DebuggerClient.spawn(sandbox, ['--test', nodeId], nodeId);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.ready,
        new Promise<never>((_, rej) => {
          timer = setTimeout(() => rej(new BridgeStartError(`debugger bridge not ready after ${readyTimeoutMs} ms`)), readyTimeoutMs);
        }),
      ]);
    } catch (e) {
      const err = client.takeOutput().stderr;
      client.kill();
      throw new BridgeStartError(`${(e as Error).message}${err ? `; stderr: ${err.slice(-1000)}` : ''}`);
    } finally {
      clearTimeout(timer);
    }
    return client;
  }

  /** Spawn a bridge that loads pytest and its plugins now and learns its test at `start`. Returns at once. */
  static prewarm(sandbox: Sandbox): DebuggerClient {
    return DebuggerClient.spawn(sandbox, ['--prewarm'], null);
  }

  private static spawn(sandbox: Sandbox, mode: string[], nodeId: string | null): DebuggerClient {
    // -P: the cwd (the workspace) is not put on sys.path, so workspace files cannot shadow the bridge's own imports;
    // the bridge adds the workspace itself just before pytest runs the test.
    const child = sandbox.spawn([sandbox.harnessEnv.python, '-P', '-m', 'debugrl_native.debugger.bridge', ...mode, '--in-fd', '3', '--out-fd', '4'], { extraPipes: 2 });
    child.on('error', () => undefined);
    return new DebuggerClient(child, nodeId);
  }

  /** A pre-warmed bridge: true when it finished loading within `timeoutMs` and is alive (else it is of no use). */
  async whenWarm(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), timeoutMs)));
    try {
      return (await Promise.race([this.warmed, late])) && this.alive;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Give a pre-warmed bridge its test; the `start` request must then carry it as `test`. */
  claim(nodeId: string): void {
    if (this.test !== null) throw new Error(`bridge already runs ${this.test}`);
    this.test = nodeId;
  }

  get nodeId(): string {
    if (this.test === null) throw new Error('a pre-warmed bridge has no test until claim()');
    return this.test;
  }

  get alive(): boolean {
    return this.exitInfo === null;
  }

  get exit(): { code: number | null; signal: string | null } | null {
    return this.exitInfo;
  }

  /** Send one command; resolves with the bridge's reply, rejects with BridgeGone on a timeout or an exit. */
  request(cmd: string, args: Record<string, unknown>, timeoutMs: number): Promise<BridgeReply> {
    if (!this.alive) return Promise.reject(new BridgeGone('the debugger process has exited', 'exited'));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new BridgeGone(`no reply to ${cmd} within ${Math.round(timeoutMs / 1000)} s`, 'timeout'));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      (this.child.stdio[3] as Writable).write(JSON.stringify({ id, cmd, args }) + '\n');
    });
  }

  /** The program's output since the last call, and how many bytes were dropped beyond the kept amount. */
  takeOutput(): { stdout: string; stderr: string; dropped: { stdout: number; stderr: number } } {
    const r = {
      stdout: Buffer.concat(this.out.stdout).toString('utf8'),
      stderr: Buffer.concat(this.out.stderr).toString('utf8'),
      dropped: { ...this.dropped },
    };
    this.out = { stdout: [], stderr: [] };
    this.kept = { stdout: 0, stderr: 0 };
    this.dropped = { stdout: 0, stderr: 0 };
    return r;
  }

  /** Let output the program wrote before the reply reach us. The bridge flushes stdout/stderr before it writes a
   * reply, so those bytes are already in their pipes when the reply arrives; two event-loop turns deliver them. */
  async settle(): Promise<void> {
    for (let i = 0; i < 2; i++) await new Promise((r) => setImmediate(r));
  }

  kill(): void {
    killGroup(this.child);
  }

  /** Kill and wait for the exit (bounded). */
  async close(): Promise<void> {
    if (!this.alive) return;
    if (!this.handshaken) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.ready.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, READY_BEFORE_KILL_MS)))]);
      clearTimeout(timer);
      if (!this.alive) return;
    }
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.kill();
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2000).unref())]);
  }
}
