/**
 * One episode: a sandbox, an optional live debugger, and the tools the model acts through.
 *
 * Two kinds of failure (the debug-gym split): a mistake by the agent (unknown tool, bad arguments, a breakpoint on a
 * blank line, stepping with nothing running, an expression that hangs) is an `ok: false` observation the model can
 * read and recover from; losing the infrastructure (the sandbox folder vanished, bwrap or the bridge cannot start)
 * throws HarnessInfraError so the caller can retry the episode.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { loadTask, type LoadedTask } from '../tasks/task-loader';
import { BridgeGone, BridgeProtocolError, BridgeStartError, DebuggerClient, type BridgeReply } from './debugger-client';
import { gradeWorkspace, type Grade } from './grader';
import { bound, droppedNote, numberLines, programOutput } from './observation';
import { runPytest } from './pytest-run';
import { Sandbox, SandboxError, WORKSPACE } from './sandbox';
import { shownPath, shownUnder, WorkspaceFsError } from './workspace-fs';
import { isToolName, parseArgs, toolDef, toolNames, type ArgsOf, type Outcome, type ToolContext, type ToolName, type Toolset } from './tools';

export type { Grade } from './grader';

export interface ToolCall {
  name: string;
  arguments: unknown;
}

export interface ToolResult {
  tool: string;
  ok: boolean;
  /** Exactly the text the model sees. */
  output: string;
  stateChanging: boolean;
  debugger: boolean;
  /** e.g. {breakpointsNeverHit?: string[], debuggerError?: boolean, edited?: boolean, ended?: boolean} */
  meta: Record<string, unknown>;
}

export class HarnessInfraError extends Error {}

/** Time limits, each with its reason. */
export const LIMITS: HarnessLimits = {
  /** bash: a command may run this long in total… */
  bashTimeoutMs: 60_000,
  /** …but is killed sooner if it prints nothing for this long (a hung command usually goes quiet). */
  bashIdleMs: 20_000,
  /** continue/step: wait this long for the next stop before reporting "still running" with all thread stacks. */
  debuggerWaitS: 5,
  /** start_debugger: pytest start-up plus fixtures before the first stop. */
  debuggerStartWaitS: 20,
  /** Inspection replies (locals, print, eval): a repr or expression that runs longer is treated as hung. */
  inspectTimeoutMs: 10_000,
  /** Read_file shows at most this many lines per call. */
  readFileLines: 200,
};

/** start_debugger waits this long for a pre-warmed bridge still loading pytest (a cold one would load the same
 * modules anyway, so waiting is never slower) before it gives up on it and starts a cold one. */
const WARM_WAIT_MS = 15_000;

export interface HarnessLimits {
  bashTimeoutMs: number;
  bashIdleMs: number;
  debuggerWaitS: number;
  debuggerStartWaitS: number;
  inspectTimeoutMs: number;
  readFileLines: number;
}

interface Breakpoint {
  file: string;
  line: number;
  condition?: string;
}


const ok = (output: string, meta: Record<string, unknown> = {}) => ({ ok: true, output, meta });
const fail = (output: string, meta: Record<string, unknown> = {}) => ({ ok: false, output, meta });

/** read_file refuses larger files (bash can show a part); edit_file refuses larger ones too. */
const READ_MAX_BYTES = 2 * 1024 * 1024;
const EDIT_MAX_BYTES = 4 * 1024 * 1024;
/** edit_file counts matches of old_text up to this many. */
const MAX_MATCHES = 1000;

/** 1-based line numbers of ascending character positions, in one pass. */
function linesOf(text: string, positions: number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let at = 0;
  for (const pos of positions) {
    for (; at < pos; at++) if (text.charCodeAt(at) === 10) line++;
    out.push(line);
  }
  return out;
}

/** Longest tool name echoed back in an "unknown tool" observation; longest argument-error text. */
const MAX_NAME_SHOWN = 64;
const MAX_ARG_ERROR_CHARS = 1000;

function clip(text: string, max: number): string {
  const flat = text.replace(/[\r\n]/g, ' ');
  return flat.length > max ? `${flat.slice(0, max)}… (${text.length} characters)` : flat;
}

function safeString(v: unknown): string {
  try {
    return String(v);
  } catch {
    return typeof v;
  }
}

/** Why a call's arguments hold text no tool can take (a NUL byte, invalid Unicode), or null. Checked before the
 * schemas: a NUL reaches no path or command line (Node throws on one), a lone surrogate no Python compile. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function badString(args: unknown, where = 'arguments', depth = 0): string | null {
  if (depth > 8) return null; // the schemas reject nesting anyway
  if (typeof args === 'string') {
    if (args.includes('\0')) return `${where} contains a NUL byte`;
    if (LONE_SURROGATE.test(args)) return `${where} is not valid Unicode (a lone surrogate)`;
    return null;
  }
  if (args && typeof args === 'object') {
    for (const [k, v] of Object.entries(args as Record<string, unknown>)) {
      const key = clip(k, 40);
      if (k.includes('\0') || LONE_SURROGATE.test(k)) return `an argument name is not valid text`;
      const why = badString(v, where === 'arguments' ? key : `${where}.${key}`, depth + 1);
      if (why) return why;
    }
  }
  return null;
}

/** A workspace file operation the agent's path made fail: an observation. Anything else is a harness bug. */
function fsFail(e: unknown, what: 'read' | 'edit' | 'test') {
  if (!(e instanceof WorkspaceFsError)) throw e;
  const tail = e.code === 'outside' ? `; only workspace files can be ${what === 'read' ? 'read' : what === 'edit' ? 'edited' : 'run'}` : '';
  return fail(`${e.message}${tail}`);
}

export class HarnessSession implements ToolContext {
  readonly id: string;
  private debuggerClient: DebuggerClient | null = null;
  /** A bridge that has loaded pytest and waits for the next start_debugger's test; never seen by the model. */
  private warmBridge: DebuggerClient | null = null;
  private breakpoints: Breakpoint[] = [];
  private done = false;
  private gradeCache: Grade | null = null;
  private closed = false;

  private constructor(
    readonly task: LoadedTask,
    readonly sandbox: Sandbox,
    readonly toolset: Toolset,
    readonly limits: HarnessLimits,
    private readonly prewarm: boolean,
  ) {
    this.id = `ep-${randomBytes(6).toString('hex')}`;
  }

  /** `prewarmDebugger` (default true when the toolset has start_debugger): keep a pre-warmed bridge in the sandbox
   * so start_debugger skips Python's and pytest's start-up. Off only to measure the difference. */
  static async create(
    opts: ({ taskDir: string; task?: undefined } | { task: LoadedTask; taskDir?: undefined }) & { toolset?: Toolset; limits?: Partial<HarnessLimits>; prewarmDebugger?: boolean },
  ): Promise<HarnessSession> {
    // A caller that has loaded (and validated) the task already passes it in; a task folder is loaded here.
    const task = opts.task ?? loadTask(opts.taskDir!);
    let sandbox: Sandbox;
    try {
      sandbox = await Sandbox.create({ workspaceFrom: task.workspaceDir, hide: [task.dir] });
    } catch (e) {
      throw new HarnessInfraError(`could not create the sandbox: ${(e as Error).message}`);
    }
    const session = new HarnessSession(task, sandbox, opts.toolset ?? 'full', { ...LIMITS, ...opts.limits }, opts.prewarmDebugger ?? true);
    session.keepWarm();
    return session;
  }

  get finished(): boolean {
    return this.done;
  }

  get tools(): ToolName[] {
    return toolNames(this.toolset);
  }

  async call(call: ToolCall): Promise<ToolResult> {
    const rawName = typeof call?.name === 'string' ? call.name : safeString(call?.name);
    if (this.closed) throw new HarnessInfraError(`session ${this.id} is closed`);
    if (!isToolName(rawName) || !this.tools.includes(rawName)) {
      const shown = clip(rawName, MAX_NAME_SHOWN);
      const base = { tool: shown, stateChanging: false, debugger: false };
      return { ...base, ...fail(`unknown tool "${shown}". Available tools: ${this.tools.join(', ')}`, { unknownTool: true }) };
    }
    const name = rawName;
    const info = toolDef(name);
    const meta = { tool: name, stateChanging: info.stateChanging, debugger: info.debugger };
    if (this.done) return { ...meta, ...fail('the episode is finished (done was called); no more tools can run', { ended: true }) };
    const badText = badString(call.arguments);
    if (badText) return { ...meta, ...fail(`invalid arguments for ${name}: ${badText}`, { invalidArguments: true }) };
    const parsed = parseArgs(name, call.arguments);
    if (!parsed.ok) return { ...meta, ...fail(bound(parsed.error, MAX_ARG_ERROR_CHARS, 'error').text, { invalidArguments: true }) };
    this.assertSandbox();
    const result = await info.run(this, parsed.args as never);
    const b = bound(result.output);
    return { ...meta, ...result, output: b.text, meta: b.truncated ? { ...result.meta, truncated: true } : result.meta };
  }

  /** Grade the episode's source files in a fresh sandbox (cached: grading is deterministic per workspace state
   * only after done, so the cache is kept only then). */
  async grade(): Promise<Grade> {
    if (this.gradeCache) return this.gradeCache;
    this.assertSandbox();
    const g = await gradeWorkspace({ task: this.task, workspaceDir: this.sandbox.workspaceHostDir });
    if (this.done) this.gradeCache = g;
    return g;
  }

  /** Resolves true once the pre-warmed bridge is loaded (false: there is none, or it failed). For benchmarks and
   * tests; start_debugger itself waits for it when needed. */
  async debuggerPrewarmed(timeoutMs = WARM_WAIT_MS): Promise<boolean> {
    return (await this.warmBridge?.whenWarm(timeoutMs)) ?? false;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.debuggerClient?.close();
    this.debuggerClient = null;
    await this.dropWarm();
    await this.sandbox.destroy();
  }

  private assertSandbox(): void {
    if (this.sandbox.isDestroyed || !fs.existsSync(this.sandbox.workspaceHostDir)) {
      throw new HarnessInfraError(`sandbox ${this.sandbox.id} is gone`);
    }
  }

  // ----- workspace tools -----

  async bash(command: string) {
    const r = await this.exec(['bash', '-c', `exec 2>&1\n${command}`], {
      timeoutMs: this.limits.bashTimeoutMs,
      idleTimeoutMs: this.limits.bashIdleMs,
      maxOutputBytes: 32 * 1024,
    });
    let out = r.stdout + droppedNote(r.droppedBytes.stdout, 'output');
    if (r.killed === 'timeout') out += `\n[killed: still running after ${this.limits.bashTimeoutMs / 1000} s; the whole process group was stopped]`;
    else if (r.killed === 'idle') out += `\n[killed: no output for ${this.limits.bashIdleMs / 1000} s; the whole process group was stopped]`;
    else if (r.killed === 'output') out += '\n[killed: endless output; the whole process group was stopped]';
    else out += `\n[exit status ${r.exitCode ?? `signal ${r.signal}`}]`;
    return r.killed || r.exitCode !== 0 ? fail(out.trimStart(), { killed: r.killed }) : ok(out.trimStart());
  }

  async readFile(a: ArgsOf<'read_file'>) {
    const ws = this.sandbox.workspace;
    const shown = shownPath(a.path);
    let buf: Buffer;
    try {
      const st = ws.stat(a.path);
      if (!st) return fail(`no such file: ${shown}. ${this.listing()}`);
      if (st.kind === 'dir') return fail(`${shown} is a directory. ${this.listing(st.rel)}`);
      if (st.kind === 'file' && st.size > READ_MAX_BYTES) return fail(`${shown} is ${st.size} bytes; use bash (head, sed -n) to read a part of it`);
      buf = ws.readFile(a.path, READ_MAX_BYTES).data;
    } catch (e) {
      return fsFail(e, 'read');
    }
    if (buf.includes(0)) return fail(`${shown} is a binary file`);
    const lines = buf.toString('utf8').split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    const start = a.start_line ?? 1;
    if (start > lines.length) return fail(`${a.path} has ${lines.length} lines; start_line ${start} is past the end`);
    const end = Math.min(a.end_line ?? start + this.limits.readFileLines - 1, lines.length, start + this.limits.readFileLines - 1);
    if (end < start) return fail(`end_line ${a.end_line} is before start_line ${start}`);
    let out = numberLines(lines.slice(start - 1, end), start);
    if (start > 1 || end < lines.length) out += `\n[showing lines ${start}-${end} of ${lines.length}; use start_line/end_line for more]`;
    return ok(out);
  }

  async editFile(a: ArgsOf<'edit_file'>) {
    const ws = this.sandbox.workspace;
    let st;
    try {
      st = ws.stat(a.path);
      if (!st) {
        if (a.old_text !== '') return fail(`no such file: ${shownPath(a.path)}. To create it, call edit_file with an empty old_text. ${this.listing()}`);
        const { rel } = ws.createFile(a.path, a.new_text);
        const n = a.new_text.split('\n').length;
        return ok(`Created ${rel} (${n} lines).`, { edited: true, created: true });
      }
    } catch (e) {
      return fsFail(e, 'edit');
    }
    if (st.kind !== 'file') return fail(`${shownPath(a.path)} is not a regular file`);
    if (a.old_text === '') return fail(`${st.rel} already exists and old_text is empty: old_text must be the exact text to replace (it must occur once)`);
    let outcome: { rel: string; text: string; updated: string; pos: number } | { failure: string } | null = null;
    try {
      ws.updateFile(a.path, EDIT_MAX_BYTES, (rel, text) => {
        const r = this.applyEdit(rel, text, a.old_text, a.new_text);
        outcome = r;
        return 'updated' in r ? r.updated : null;
      });
    } catch (e) {
      return fsFail(e, 'edit');
    }
    const done = outcome as { rel: string; text: string; updated: string; pos: number } | { failure: string } | null;
    if (!done) return fail(`${shownPath(a.path)} could not be edited`);
    if ('failure' in done) return fail(done.failure);
    const { rel, text, updated, pos } = done;
    const lineAt = (at: number) => text.slice(0, at).split('\n').length;
    const first = lineAt(pos);
    // Lines spanned, not counting a final newline: "x = 1\n" is one line.
    const span = (t: string) => Math.max(1, t.replace(/\n$/, '').split('\n').length);
    const oldCount = span(a.old_text);
    const newCount = a.new_text === '' ? 0 : span(a.new_text);
    const newLines = updated.split('\n');
    const from = Math.max(1, first - 2);
    let out = `Edited ${rel}: lines ${first}-${first + oldCount - 1} replaced by ${newCount} line(s).\n${numberLines(newLines.slice(from - 1, first + newCount + 1), from)}`;
    const meta: Record<string, unknown> = { edited: true };
    if (rel.endsWith('.py')) {
      const delta = (a.new_text.match(/\n/g) ?? []).length - (a.old_text.match(/\n/g) ?? []).length;
      const note = await this.afterEdit(rel, first, first + oldCount - 1, delta);
      if (note) {
        out += `\n\n${note.text}`;
        Object.assign(meta, note.meta);
      }
    }
    return ok(out, meta);
  }

  /** The edited text, or why the edit cannot apply (zero or several matches). */
  private applyEdit(rel: string, text: string, oldText: string, newText: string): { rel: string; text: string; updated: string; pos: number } | { failure: string } {
    // Matches are counted up to a bound: a one-character old_text in a large file must not cost quadratic time.
    const positions: number[] = [];
    for (let i = text.indexOf(oldText); i !== -1 && positions.length <= MAX_MATCHES; i = text.indexOf(oldText, i + 1)) positions.push(i);
    const lines = text.split('\n');
    if (positions.length === 0) return { failure: this.noMatch(rel, text, lines, oldText) };
    if (positions.length > 1) {
      const at = linesOf(text, positions.slice(0, 20));
      const shown = at.slice(0, 5).map((l) => numberLines(lines.slice(Math.max(0, l - 2), l + 1), Math.max(1, l - 1))).join('\n---\n');
      const count = positions.length > MAX_MATCHES ? `more than ${MAX_MATCHES}` : String(positions.length);
      const where = positions.length > at.length ? `${at.join(', ')} …` : at.join(', ');
      return { failure: `old_text occurs ${count} times in ${rel} (starting at lines ${where}); include more surrounding lines so it matches exactly once:\n${shown}` };
    }
    const pos = positions[0]!;
    return { rel, text, updated: text.slice(0, pos) + newText + text.slice(pos + oldText.length), pos };
  }

  private noMatch(rel: string, text: string, lines: string[], oldText: string): string {
    const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
    const hint = squash(text).includes(squash(oldText)) ? ' It does match if whitespace is ignored: check indentation and line breaks.' : '';
    const firstLine = oldText.split('\n').find((l) => l.trim())?.trim() ?? '';
    // Show the lines around the best candidate: the first line containing old_text's first line, else the line
    // sharing the longest common prefix with it.
    let best = lines.findIndex((l) => firstLine && l.includes(firstLine));
    if (best < 0) {
      let bestLen = 0;
      lines.forEach((l, i) => {
        const t = l.trim();
        let k = 0;
        while (k < t.length && k < firstLine.length && t[k] === firstLine[k]) k++;
        if (k > bestLen) [bestLen, best] = [k, i];
      });
    }
    const near = best >= 0 ? `\nNearest lines in ${rel}:\n${numberLines(lines.slice(Math.max(0, best - 3), best + 4), Math.max(1, best - 2))}` : '';
    return `old_text was not found in ${rel} (0 matches).${hint}${near}`;
  }

  async runTests(target?: string) {
    if (target) {
      const file = target.split('::')[0]!;
      let st;
      try {
        st = this.sandbox.workspace.stat(file);
      } catch (e) {
        return fsFail(e, 'test');
      }
      if (!st || (st.kind !== 'file' && st.kind !== 'dir')) return fail(`no such test file in the workspace: ${shownPath(file)}. ${this.listing()}`);
    }
    const timeoutSec = this.task.spec.time_limits.test_seconds + 20;
    let run;
    try {
      run = await runPytest(this.sandbox, { targets: target ? [target] : [], timeoutMs: timeoutSec * 1000, args: ['--tb=short'], maxOutputBytes: 64 * 1024 });
    } catch (e) {
      throw new HarnessInfraError(`pytest could not start in the sandbox: ${(e as Error).message}`);
    }
    const ids = Object.keys(run.tests);
    const count = (o: string) => ids.filter((i) => run.tests[i] === o).length;
    const summary = ['passed', 'failed', 'error', 'skipped', 'timeout'].filter((o) => count(o)).map((o) => `${count(o)} ${o}`).join(', ');
    const bad = ids.filter((i) => ['failed', 'error', 'timeout'].includes(run.tests[i]!));
    const lines = [`Result: ${summary || 'no tests ran'}${run.exec.killed === 'timeout' ? ` (killed after ${timeoutSec} s)` : ''}`];
    for (const id of bad) lines.push(`${run.tests[id]!.toUpperCase()} ${id}${run.messages[id] ? `: ${run.messages[id]!.split('\n')[0]}` : ''}`);
    for (const e of run.collectErrors) lines.push(`COLLECTION ERROR ${e.slice(0, 500)}`);
    const tail = run.exec.stdout.trim();
    if (bad.length || run.collectErrors.length || !ids.length) lines.push('', 'pytest output (short tracebacks):', bound(tail, 5000, 'pytest output').text);
    const passed = ids.length > 0 && bad.length === 0 && !run.collectErrors.length;
    return passed ? ok(lines.join('\n'), { tests: run.tests }) : fail(lines.join('\n'), { tests: run.tests });
  }

  async finish() {
    this.done = true;
    await this.debuggerClient?.close();
    this.debuggerClient = null;
    await this.dropWarm();
    return ok('Episode finished. The grader will now run the tests on your source files.', { ended: true });
  }

  // ----- the debugger -----

  async startDebugger(testFile: string, testName?: string) {
    let st;
    try {
      st = this.sandbox.workspace.stat(testFile);
    } catch (e) {
      return fsFail(e, 'test');
    }
    if (st?.kind !== 'file') return fail(`no such test file: ${shownPath(testFile)}. ${this.listing()}`);
    const rel = st.rel;
    const nodeId = testName ? `${rel}::${testName}` : rel;
    const restarted = this.debuggerClient !== null;
    const r = await this.launch(nodeId);
    if (!r.ok) return r;
    return { ...r, output: (restarted ? 'Previous debugger session stopped; breakpoints kept.\n' : '') + r.output };
  }

  /** Start a bridge on `nodeId`, wait for the stop before the test body, restore breakpoints. Then pre-warm the
   * bridge for the next start (after the stop, so its loading does not compete with this one's). */
  private async launch(nodeId: string, shift?: Map<string, string>) {
    try {
      return await this.launchOn(nodeId, shift);
    } finally {
      this.keepWarm();
    }
  }

  private async launchOn(nodeId: string, shift?: Map<string, string>) {
    await this.debuggerClient?.close();
    this.debuggerClient = null;
    const first = await this.openBridge(nodeId);
    if (!first.reply) return first.result;
    const client = this.debuggerClient!;
    if (first.reply.state !== 'paused') {
      // The run ended (or hangs) before reaching a test body: a wrong test name, a collection error.
      const out = this.withOutput(first.reply.text ?? '');
      await client.close();
      this.debuggerClient = null;
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

  /** Make `nodeId`'s bridge the session's debugger and send `start`: the pre-warmed bridge when it is loaded and
   * not stale (a workspace file now shadows a module it loaded), else a cold one. Either way a fresh process. */
  private async openBridge(nodeId: string) {
    const start = { wait: this.limits.debuggerStartWaitS, test: nodeId };
    const startTimeoutMs = (this.limits.debuggerStartWaitS + 10) * 1000;
    const warm = this.warmBridge;
    this.warmBridge = null;
    if (warm && (await warm.whenWarm(WARM_WAIT_MS))) {
      warm.claim(nodeId);
      this.debuggerClient = warm;
      const first = await this.request('start', start, startTimeoutMs);
      if (first.reply?.state !== 'stale') return { ...first, prewarmed: true };
    }
    await warm?.close(); // stale, failed or too slow: nothing it did is shown
    this.debuggerClient = null;
    try {
      this.debuggerClient = await DebuggerClient.start(this.sandbox, nodeId);
    } catch (e) {
      if (e instanceof BridgeStartError || e instanceof SandboxError) throw new HarnessInfraError(`debugger could not start: ${e.message}`);
      throw e;
    }
    return { ...(await this.request('start', start, startTimeoutMs)), prewarmed: false };
  }

  /** Keep one pre-warmed bridge ready, when this session uses the debugger at all. */
  private keepWarm(): void {
    if (!this.prewarm || this.warmBridge || this.closed || this.done || this.sandbox.isDestroyed || !this.tools.includes('start_debugger')) return;
    try {
      this.warmBridge = DebuggerClient.prewarm(this.sandbox);
    } catch {
      this.warmBridge = null; // the sandbox cannot spawn: the cold start reports it as an infra error
    }
  }

  private async dropWarm(): Promise<void> {
    const warm = this.warmBridge;
    this.warmBridge = null;
    await warm?.close();
  }

  async addBreakpoint(a: ArgsOf<'add_breakpoint'>) {
    return this.debuggerCommand('add_breakpoint', a, (r) => {
      if (r.ok) {
        const file = this.relFile(a.file);
        this.breakpoints = this.breakpoints.filter((b) => !(b.file === file && b.line === a.line));
        this.breakpoints.push({ file, line: a.line, ...(a.condition ? { condition: a.condition } : {}) });
      }
    });
  }

  async removeBreakpoint(a: { file: string; line: number }): Promise<Outcome> {
    return this.debuggerCommand('remove_breakpoint', a, (r) => this.forget(r, a));
  }

  private forget(r: BridgeReply, a: { file: string; line: number }): void {
    if (!r.ok) return;
    const file = this.relFile(a.file);
    this.breakpoints = this.breakpoints.filter((b) => !(b.file === file && b.line === a.line));
  }

  async stopDebugger() {
    if (!this.debuggerClient) return fail('no debugger session is running');
    const out = this.withOutput('');
    await this.debuggerClient.close();
    this.debuggerClient = null;
    this.breakpoints = [];
    return ok(`Debugger stopped; the program was killed and breakpoints cleared.${out ? `\n${out}` : ''}`);
  }

  async debuggerCommand(cmd: string, args: Record<string, unknown>, after?: (r: BridgeReply) => void) {
    if (!this.debuggerClient) return fail('no debugger session: call start_debugger(test_file, test_name) first', { debuggerError: true });
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

  /** One bridge request; a hang or an exit of the program becomes an ok:false observation and ends the session. */
  private async request(cmd: string, args: Record<string, unknown>, timeoutMs: number) {
    const client = this.debuggerClient!;
    try {
      const reply = await client.request(cmd, args, timeoutMs);
      await client.settle();
      // A bug in the bridge, not a mistake of the agent: the episode cannot trust this debugger any more.
      if (reply.internal) throw new HarnessInfraError(`debugger bridge failed on ${cmd}: ${(reply.error ?? '').slice(0, 500)}`);
      return { reply, result: null as never };
    } catch (e) {
      if (e instanceof BridgeProtocolError) throw new HarnessInfraError(`debugger bridge failed on ${cmd}: ${e.message}`);
      if (!(e instanceof BridgeGone)) throw e;
      this.assertSandbox();
      const out = this.withOutput('');
      await client.close();
      this.debuggerClient = null;
      const why =
        e.why === 'timeout'
          ? `${cmd} did not finish within ${Math.round(timeoutMs / 1000)} s (an expression or repr that never returns?). The debugger session was stopped`
          : `The program exited and took the debugger with it (exit ${client.exit?.code ?? `signal ${client.exit?.signal}`})`;
      return { reply: null, result: fail(`${why}; start_debugger runs the test again.${out ? `\n${out}` : ''}`, { debuggerError: true, debuggerStopped: true }) };
    }
  }

  /** After an edit of a Python file while a debugger session exists: the running program still has the old code
   * loaded, so shift this file's breakpoints below the edit by the line delta and restart on the new code. */
  private async afterEdit(file: string, firstLine: number, lastLine: number, delta: number) {
    if (!this.debuggerClient) return null;
    const shifted = new Map<string, string>();
    this.breakpoints = this.breakpoints.map((b) => {
      if (b.file !== file || b.line <= lastLine || delta === 0) return b;
      const moved = { ...b, line: b.line + delta };
      shifted.set(`${moved.file}:${moved.line}`, `${b.file}:${b.line} -> ${moved.line}`);
      return moved;
    });
    const nodeId = this.debuggerClient.nodeId;
    const r = await this.launch(nodeId, shifted);
    const how = shifted.size
      ? `breakpoints below line ${lastLine} of ${file} shifted by ${delta > 0 ? '+' : ''}${delta} line(s)`
      : 'no breakpoint needed shifting';
    return {
      text: `The debugger was restarted on the edited code (${how}; breakpoints restored):\n${r.output}`,
      meta: { debuggerRestarted: true, breakpointsShifted: [...shifted.values()], debuggerError: !r.ok },
    };
  }

  private withOutput(text: string): string {
    if (!this.debuggerClient) return text;
    const o = this.debuggerClient.takeOutput();
    const prog = programOutput(o.stdout, o.stderr, o.dropped);
    return prog ? `${text}\n${prog}`.trim() : text;
  }

  private relFile(file: string): string {
    return this.sandbox.workspace.relative(file) ?? file;
  }

  /** The names in a workspace folder (root-relative path), bounded. */
  private listing(rel = ''): string {
    const names = this.sandbox.workspace.list(rel).filter((n) => !n.startsWith('.')).map((n) => shownPath(n));
    return `Files in ${shownUnder(WORKSPACE, rel)}: ${names.slice(0, 30).join(', ')}${names.length > 30 ? ` … ${names.length - 30} more` : ''}`;
  }

  private exec(...a: Parameters<Sandbox['exec']>) {
    return this.sandbox.exec(...a).catch((e: Error) => {
      throw new HarnessInfraError(`sandbox command could not start: ${e.message}`);
    });
  }
}
