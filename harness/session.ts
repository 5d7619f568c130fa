/**
 * One episode: a sandbox holding the task's workspace, the debugger session on it, and the dispatch of the model's
 * tool calls to the tool records (tools/), each with its own handler.
 *
 * Two kinds of failure (the debug-gym split): a mistake by the agent (unknown tool, bad arguments, a breakpoint on a
 * blank line, stepping with nothing running, an expression that hangs) is an `ok: false` observation the model can
 * read and recover from; losing the infrastructure (the sandbox folder vanished, bwrap or the bridge cannot start)
 * throws HarnessInfraError so the caller can retry the episode.
 */
import { randomBytes } from 'node:crypto';
import { loadTask, type LoadedTask } from '../taskset/task-loader';
import { DebuggerSession, WARM_WAIT_MS } from './debugger-session';
import { gradeWorkspace, type Grade } from './grader';
import type { HarnessEnv } from './env';
import { HarnessInfraError } from './infra-error';
import { LIMITS, type HarnessLimits } from './limits';
import { bound } from './observation';
import { fail } from './outcome';
import { Sandbox } from './sandbox';
import { isToolName, parseArgs, toolDef, toolNames, type ToolContext, type ToolName, type Toolset } from './tools';
import { Workspace } from './workspace';

export { harnessEnv, type HarnessEnv } from './env';
export type { Grade } from './grader';
export { HarnessInfraError } from './infra-error';
export { LIMITS, type HarnessLimits } from './limits';

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

/** Longest tool name echoed back in an "unknown tool" observation; longest argument-error text. */
const MAX_NAME_SHOWN = 64;
const MAX_ARG_ERROR_CHARS = 1000;

export class HarnessSession {
  readonly id: string;
  readonly workspace: Workspace;
  readonly debugger: DebuggerSession;
  private done = false;
  private gradeCache: Grade | null = null;
  private closed = false;
  /** What the tool handlers act on. */
  private readonly context: ToolContext;

  private constructor(
    readonly task: LoadedTask,
    readonly sandbox: Sandbox,
    readonly toolset: Toolset,
    readonly limits: HarnessLimits,
    prewarm: boolean,
  ) {
    this.id = `ep-${randomBytes(6).toString('hex')}`;
    this.workspace = new Workspace(sandbox);
    this.debugger = new DebuggerSession(this.workspace, limits, prewarm && this.tools.includes('start_debugger'));
    this.context = {
      workspace: this.workspace,
      debugger: this.debugger,
      limits,
      testSeconds: task.spec.time_limits.test_seconds,
      end: async () => {
        this.done = true;
        await this.debugger.close();
      },
    };
  }

  /** `env`: the host's interpreter, data and tasks folders, from the entrypoint's configuration (env.ts).
   * `prewarmDebugger` (default true when the toolset has start_debugger): keep a pre-warmed bridge in the sandbox
   * so start_debugger skips Python's and pytest's start-up. Off only to measure the difference. */
  static async create(
    opts: ({ taskDir: string; task?: undefined } | { task: LoadedTask; taskDir?: undefined }) & { env: HarnessEnv; toolset?: Toolset; limits?: Partial<HarnessLimits>; prewarmDebugger?: boolean },
  ): Promise<HarnessSession> {
    // A caller that has loaded (and validated) the task already passes it in; a task folder is loaded here.
    const task = opts.task ?? loadTask(opts.taskDir!);
    let sandbox: Sandbox;
    try {
      sandbox = await Sandbox.create({ harnessEnv: opts.env, workspaceFrom: task.workspaceDir, hide: [task.dir] });
    } catch (e) {
      throw new HarnessInfraError(`could not create the sandbox: ${(e as Error).message}`);
    }
    return new HarnessSession(task, sandbox, opts.toolset ?? 'full', { ...LIMITS, ...opts.limits }, opts.prewarmDebugger ?? true);
  }

  get finished(): boolean {
    return this.done;
  }

  get tools(): ToolName[] {
    return toolNames(this.toolset);
  }

  /** Screen the call (known tool, episode not finished, well-formed text, valid arguments), run its handler and
   * bound its observation. */
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
    this.workspace.assertPresent();
    const result = await info.run(this.context, parsed.args as never);
    const b = bound(result.output);
    return { ...meta, ...result, output: b.text, meta: b.truncated ? { ...result.meta, truncated: true } : result.meta };
  }

  /** Grade the episode's source files in a fresh sandbox (cached: grading is deterministic per workspace state
   * only after done, so the cache is kept only then). */
  async grade(): Promise<Grade> {
    if (this.gradeCache) return this.gradeCache;
    this.workspace.assertPresent();
    const g = await gradeWorkspace({ task: this.task, env: this.sandbox.harnessEnv, workspaceDir: this.sandbox.workspaceHostDir });
    if (this.done) this.gradeCache = g;
    return g;
  }

  /** Resolves true once the pre-warmed bridge is loaded (false: there is none, or it failed). For benchmarks and
   * tests; start_debugger itself waits for it when needed. */
  async debuggerPrewarmed(timeoutMs = WARM_WAIT_MS): Promise<boolean> {
    return this.debugger.prewarmed(timeoutMs);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.debugger.close();
    await this.sandbox.destroy();
  }
}

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
