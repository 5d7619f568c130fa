/**
 * The episode's debugger: at most one live bridge (debugger-client.ts) running a test under pdb, the breakpoints
 * the agent set (kept across restarts, restored on each start), one pre-warmed bridge kept aside so start_debugger
 * skips Python's and pytest's start-up, and the restart after an edit, which shifts the edited file's breakpoints by
 * the edit's line delta (the running program still has the old code loaded).
 *
 * A hang or an exit of the program under test is an `ok: false` observation that stops the session (start_debugger
 * runs the test again); a bridge that breaks its protocol or cannot start is a HarnessInfraError.
 */
import { BridgeGone, BridgeProtocolError, BridgeStartError, DebuggerClient, type BridgeReply } from './debugger-client';
import { HarnessInfraError } from './infra-error';
import type { HarnessLimits } from './limits';
import { programOutput } from './observation';
import { fail, ok, type Outcome } from './outcome';
import { SandboxError } from './sandbox';
import type { Workspace } from './workspace';

/** start_debugger waits this long for a pre-warmed bridge still loading pytest (a cold one would load the same
 * modules anyway, so waiting is never slower) before it gives up on it and starts a cold one. */
export const WARM_WAIT_MS = 15_000;

/** A breakpoint as the agent set it, its file workspace-relative. */
interface Breakpoint {
  file: string;
  line: number;
  condition?: string;
}

export class DebuggerSession {
  private client: DebuggerClient | null = null;
  /** A bridge that has loaded pytest and waits for the next start's test; never seen by the model. */
  private warmBridge: DebuggerClient | null = null;
  private breakpoints: Breakpoint[] = [];
  private closed = false;

  /** `prewarm`: keep a pre-warmed bridge ready (off when the toolset has no debugger, or to measure the difference). */
  constructor(
    private readonly workspace: Workspace,
    private readonly limits: HarnessLimits,
    private readonly prewarm: boolean,
  ) {
    this.keepWarm();
  }

  /** A test is running under the debugger. */
  get running(): boolean {
    return this.client !== null;
  }

  /** Run `nodeId` under a fresh bridge, stop before the test body and restore the breakpoints (`shift` relabels the
   * ones an edit moved). Then pre-warm the bridge for the next start (after the stop, so its loading does not
   * compete with this one's). */
  async start(nodeId: string, shift?: Map<string, string>): Promise<Outcome> {
    try {
      return await this.launch(nodeId, shift);
    } finally {
      this.keepWarm();
    }
  }

  /** One bridge command (protocol.py) on the running test; `after` sees a reply before it becomes the observation. */
  async command(cmd: string, args: Record<string, unknown>, after?: (r: BridgeReply) => void): Promise<Outcome> {
    if (!this.client) return fail('no debugger session: call start_debugger(test_file, test_name) first', { debuggerError: true });
    const wait = typeof args.wait === 'number' ? args.wait : 0;
    const { reply, result } = await this.request(cmd, args, wait * 1000 + this.limits.inspectTimeoutMs);
    if (!reply) return result;
    after?.(reply);
    const meta: Record<string, unknown> = { state: reply.state };
    if (reply.never_hit?.length) meta.breakpointsNeverHit = reply.never_hit;
    if (reply.state === 'ended') meta.programEnded = true;
    if (!reply.ok) {
      meta.debuggerError = true;
      return fail(this.withOutput(reply.error ?? 'error'), meta);
    }
    return ok(this.withOutput(reply.text ?? ''), meta);
  }

  /** Set a breakpoint in the running test; once the bridge accepts it, it is kept for later starts. */
  addBreakpoint(a: { file: string; line: number; condition?: string }): Promise<Outcome> {
    return this.command('add_breakpoint', a, (r) => {
      if (!r.ok) return;
      const file = this.workspace.relative(a.file);
      this.breakpoints = this.breakpoints.filter((b) => !(b.file === file && b.line === a.line));
      this.breakpoints.push({ file, line: a.line, ...(a.condition ? { condition: a.condition } : {}) });
    });
  }

  /** Remove a breakpoint from the running test and from those kept. */
  removeBreakpoint(a: { file: string; line: number }): Promise<Outcome> {
    return this.command('remove_breakpoint', a, (r) => {
      if (!r.ok) return;
      const file = this.workspace.relative(a.file);
      this.breakpoints = this.breakpoints.filter((b) => !(b.file === file && b.line === a.line));
    });
  }

  /** Kill the running test and forget the breakpoints; returns the program's last output (empty when none). */
  async stop(): Promise<string> {
    const out = this.withOutput('');
    await this.client?.close();
    this.client = null;
    this.breakpoints = [];
    return out;
  }

  /**
   * After an edit of lines firstLine..lastLine of the Python file `file` (`delta` lines added, negative: removed):
   * shift the file's breakpoints below the edit and restart the running test on the new code. Null when no test is
   * running. `shifted` says which breakpoints moved ("a.py:10 -> 12").
   */
  async restartAfterEdit(file: string, lastLine: number, delta: number): Promise<{ shifted: string[]; outcome: Outcome } | null> {
    if (!this.client) return null;
    const shifted = new Map<string, string>();
    this.breakpoints = this.breakpoints.map((b) => {
      if (b.file !== file || b.line <= lastLine || delta === 0) return b;
      const moved = { ...b, line: b.line + delta };
      shifted.set(`${moved.file}:${moved.line}`, `${b.file}:${b.line} -> ${moved.line}`);
      return moved;
    });
    const outcome = await this.start(this.client.nodeId, shifted);
    return { shifted: [...shifted.values()], outcome };
  }

  /** Resolves true once the pre-warmed bridge is loaded (false: there is none, or it failed). */
  async prewarmed(timeoutMs = WARM_WAIT_MS): Promise<boolean> {
    return (await this.warmBridge?.whenWarm(timeoutMs)) ?? false;
  }

  /** Stop the running test and the pre-warmed bridge, and start no new one (the episode ended or closed). */
  async close(): Promise<void> {
    this.closed = true;
    await this.client?.close();
    this.client = null;
    const warm = this.warmBridge;
    this.warmBridge = null;
    await warm?.close();
  }

  private async launch(nodeId: string, shift?: Map<string, string>): Promise<Outcome> {
    await this.client?.close();
    this.client = null;
    const first = await this.openBridge(nodeId);
    if (!first.reply) return first.result;
    const client = this.client!;
    if (first.reply.state !== 'paused') {
      // The run ended (or hangs) before reaching a test body: a wrong test name, a collection error.
      const out = this.withOutput(first.reply.text ?? '');
      await client.close();
      this.client = null;
      return fail(`The debugger did not reach a test body.\n${out}`, { debuggerError: true });
    }
    const restored: string[] = [];
    const dropped: string[] = [];
    const keep: Breakpoint[] = [];
    for (const bp of this.breakpoints) {
      const r = await client.request('add_breakpoint', { ...bp }, this.limits.inspectTimeoutMs).catch(() => null);
      const label = `${bp.file}:${bp.line}`;
      if (r?.ok) {
        keep.push(bp);
        restored.push(shift?.get(label) ?? label);
      } else dropped.push(`${label} (${r?.error?.split('.')[0] ?? 'no reply'})`);
    }
    this.breakpoints = keep;
    let text = this.withOutput(first.reply.text ?? '');
    if (restored.length) text += `\nBreakpoints restored: ${restored.join(', ')}`;
    if (dropped.length) text += `\nBreakpoints dropped (no longer valid): ${dropped.join(', ')}`;
    // meta only (the model never sees it): which kind of bridge served the start, for tests and latency metrics.
    return ok(text, { restarted: true, bridge: first.prewarmed ? 'prewarmed' : 'cold' });
  }

  /** Make `nodeId`'s bridge the running one and send `start`: the pre-warmed bridge when it is loaded and not stale
   * (a workspace file now shadows a module it loaded), else a cold one. Either way a fresh process. */
  private async openBridge(nodeId: string) {
    const start = { wait: this.limits.debuggerStartWaitS, test: nodeId };
    const startTimeoutMs = (this.limits.debuggerStartWaitS + 10) * 1000;
    const warm = this.warmBridge;
    this.warmBridge = null;
    if (warm && (await warm.whenWarm(WARM_WAIT_MS))) {
      warm.claim(nodeId);
      this.client = warm;
      const first = await this.request('start', start, startTimeoutMs);
      if (first.reply?.state !== 'stale') return { ...first, prewarmed: true };
    }
    await warm?.close(); // stale, failed or too slow: nothing it did is shown
    this.client = null;
    try {
      this.client = await DebuggerClient.start(this.workspace.sandbox, nodeId);
    } catch (e) {
      if (e instanceof BridgeStartError || e instanceof SandboxError) throw new HarnessInfraError(`debugger could not start: ${e.message}`);
      throw e;
    }
    return { ...(await this.request('start', start, startTimeoutMs)), prewarmed: false };
  }

  /** Keep one pre-warmed bridge ready while the episode may still start the debugger. */
  private keepWarm(): void {
    if (!this.prewarm || this.warmBridge || this.closed || this.workspace.sandbox.isDestroyed) return;
    try {
      this.warmBridge = DebuggerClient.prewarm(this.workspace.sandbox);
    } catch {
      this.warmBridge = null; // the sandbox cannot spawn: the cold start reports it as an infra error
    }
  }

  /** One bridge request; a hang or an exit of the program becomes an ok:false observation and ends the session. */
  private async request(cmd: string, args: Record<string, unknown>, timeoutMs: number): Promise<{ reply: BridgeReply; result: never } | { reply: null; result: Outcome }> {
    const client = this.client!;
    try {
      const reply = await client.request(cmd, args, timeoutMs);
      await client.settle();
      // A bug in the bridge, not a mistake of the agent: the episode cannot trust this debugger any more.
      if (reply.internal) throw new HarnessInfraError(`debugger bridge failed on ${cmd}: ${(reply.error ?? '').slice(0, 500)}`);
      return { reply, result: null as never };
    } catch (e) {
      if (e instanceof BridgeProtocolError) throw new HarnessInfraError(`debugger bridge failed on ${cmd}: ${e.message}`);
      if (!(e instanceof BridgeGone)) throw e;
      this.workspace.assertPresent();
      const out = this.withOutput('');
      await client.close();
      this.client = null;
      const why =
        e.why === 'timeout'
          ? `${cmd} did not finish within ${Math.round(timeoutMs / 1000)} s (an expression or repr that never returns?). The debugger session was stopped`
          : `The program exited and took the debugger with it (exit ${client.exit?.code ?? `signal ${client.exit?.signal}`})`;
      return { reply: null, result: fail(`${why}; start_debugger runs the test again.${out ? `\n${out}` : ''}`, { debuggerError: true, debuggerStopped: true }) };
    }
  }

  /** The observation text followed by the program's output since the last observation (bounded). */
  private withOutput(text: string): string {
    if (!this.client) return text;
    const o = this.client.takeOutput();
    const prog = programOutput(o.stdout, o.stderr, o.dropped);
    return prog ? `${text}\n${prog}`.trim() : text;
  }
}
