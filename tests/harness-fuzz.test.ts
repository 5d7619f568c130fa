/**
 * Fuzzing the harness (issue 10, bug 3): many random and hostile tool calls over several tasks, from a fixed seed,
 * so a failure replays exactly (the failing call is printed with its index). Calls mix valid tools with mutated
 * arguments, unknown tools, hostile strings, link and FIFO tricks made through bash, and debugger command runs.
 *
 * Per call: exactly one observation comes back (no throw: nothing here is an infrastructure loss), within its cap,
 * naming no host path of the sandbox or the task. Per task: a grade at the end, the sandbox's folder gone and no
 * process of its uid left; the host folder the links point at is untouched.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OBSERVATION_MAX_CHARS } from '../harness/observation';
import { HarnessSession, type ToolCall, type ToolResult } from '../harness/session';
import { toolNames } from '../harness/tools';
import { loadTask } from '../taskset/task-loader';
import { ALIAS_TASK, DEFAULT_TASK, HARNESS_ENV, LOCK_TASK } from './harness-helpers';

const SEED = 20261201;
const CALLS_PER_TASK = 30;
const TASKS = [DEFAULT_TASK, LOCK_TASK, ALIAS_TASK, path.join(__dirname, '..', 'tasks', 'account_signup'), path.join(__dirname, '..', 'tasks', 'chat_presence_hub')];

/** mulberry32: a small, fixed PRNG. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick };
}
type Rng = ReturnType<typeof rng>;

function hostileStrings(host: string): string[] {
  return [
    '', ' ', '\0', 'a\0b', '\uD800', 'x\uDFFFy', '../../etc/passwd', '/etc/passwd', '/workspace/../../etc/shadow', '/proc/self/root/etc/hostname',
    `${host}/secret.py`, `${host}/new.py`, 'n'.repeat(300), 'd/'.repeat(150) + 'x.py', '\n\n\n', '$(id)', '`id`', '--help', '-k x', '::', 'ünïcødé.py', '🐍.py',
    'x'.repeat(20_000), '{"a": 1}', '1e309', 'None', '__import__("os")._exit(0)', 'raise SystemExit', 'esc.py', 'fifo.py', 'sock.py', 'loop.py', 'hostlink/x.py',
  ];
}

function bashTricks(host: string): string[] {
  return [
    `ln -sf ${host}/new.txt esc.py`,
    `ln -sfn ${host} hostlink`,
    `ln -sf ${host}/secret.py secret_link.py`,
    'rm -f fifo.py; mkfifo fifo.py',
    `python -c "import socket; socket.socket(socket.AF_UNIX).bind('sock.py')"`,
    'ln -sf loop.py loop.py',
    'ln -sfn / rootlink',
    'mkdir -p d1/d2 && ln -sfn ../../.. d1/d2/up',
    'echo "raise ImportError(1)" > json.py',
    'echo "raise ImportError(1)" > threading.py',
    'mkdir -p debugrl_native && echo "raise ImportError(1)" > debugrl_native/__init__.py',
    'rm -f json.py threading.py; rm -rf debugrl_native',
    'cat /proc/1/cmdline | tr "\\0" " "',
    'kill -9 -1; echo killed',
    'ls -la',
    'yes | head -c 200000',
    'sleep 30',
    'chmod 000 *.py; ls',
    'chmod 644 *.py',
    'printf "\\x00\\xff\\xfe" > bin.py',
  ];
}

interface Ctx {
  r: Rng;
  files: string[];
  host: string;
  lines: number;
}

function mutate(ctx: Ctx, args: Record<string, unknown>): unknown {
  const { r } = ctx;
  const keys = Object.keys(args);
  switch (r.int(7)) {
    case 0:
      return { ...args, [r.pick(['extra', 'count', '__proto__x', 'x'.repeat(5000)])]: 1 };
    case 1:
      if (keys.length) delete args[r.pick(keys)];
      return args;
    case 2:
      if (keys.length) args[r.pick(keys)] = r.pick([null, 3, -1, 1e12, true, [], {}, 'str', 1.5]);
      return args;
    case 3:
      if (keys.length) args[r.pick(keys)] = r.pick(hostileStrings(ctx.host));
      return args;
    case 4:
      return r.pick([null, 'string', 42, [], [args]]);
    default:
      return args;
  }
}

/** One random call: mostly plausible, often mutated, sometimes nonsense. */
function randomCall(ctx: Ctx): ToolCall {
  const { r, files } = ctx;
  const py = files.filter((f) => f.endsWith('.py'));
  const tests = py.filter((f) => f.startsWith('test_'));
  const file = () => (r.next() < 0.8 ? r.pick(py) : r.pick(hostileStrings(ctx.host)));
  const line = () => (r.next() < 0.8 ? 1 + r.int(ctx.lines) : r.pick([0, -5, 10 ** 6, 2.5]));
  const expr = () => r.pick(['self', 'locals()', 'len(dir())', '1/0', 'x', 'print("hi")', 'raise SystemExit(1)', 'raise KeyboardInterrupt', '[i for i in range(10**5)]',
    'type("C", (), {"__repr__": lambda s: 1/0})()', 'import os; os.getcwd()', '__import__("sys").path[:2]', 'open("/etc/hostname").read()', 'globals().keys()', "'\uD800'", 'a\0']);
  const name = r.next() < 0.06 ? r.pick(['pdb', 'shell', '', 'x'.repeat(100_000), 'bash ', 'BASH', '__proto__', 'constructor', 'toString']) : r.pick(toolNames('full').filter((t) => t !== 'done'));
  let args: Record<string, unknown>;
  switch (name) {
    case 'bash':
      args = { command: r.next() < 0.5 ? r.pick(bashTricks(ctx.host)) : r.pick(['ls', 'cat *.py | head -5', 'pwd', 'id -u', 'python -c "print(1)"', 'echo $PATH']) };
      break;
    case 'read_file':
      args = { path: file(), ...(r.next() < 0.3 ? { start_line: line(), end_line: line() } : {}) };
      break;
    case 'edit_file':
      args = r.next() < 0.5
        ? { path: r.pick([...py, 'new_mod.py', 'pkg/sub/new.py', 'esc.py', 'hostlink/new.py', 'fifo.py', 'd1/d2/up/x.py']), old_text: '', new_text: 'VALUE = 1\n' }
        : { path: file(), old_text: r.pick(['def ', 'return', 'self', 'import', '\n', 'zzz-not-there']), new_text: r.pick(['def ', 'return  ', 'pass\n', '']) };
      break;
    case 'run_tests':
      args = r.next() < 0.5 ? {} : { target: r.pick([...tests, 'nope.py', 'secret_link.py', 'hostlink', 'fifo.py', `${r.pick(tests) ?? 'x.py'}::test_missing`]) };
      break;
    case 'start_debugger':
      args = { test_file: r.next() < 0.85 ? r.pick(tests) : file(), ...(r.next() < 0.3 ? { test_name: r.pick(['test_missing', 'TestX::test_y', 'test_x[1]']) } : {}) };
      break;
    case 'add_breakpoint':
      args = { file: file(), line: line(), ...(r.next() < 0.2 ? { condition: expr() } : {}) };
      break;
    case 'remove_breakpoint':
      args = { file: file(), line: line() };
      break;
    case 'print_variable':
    case 'run_expression':
      args = { expression: expr() };
      break;
    default:
      args = {};
  }
  return { name, arguments: r.next() < 0.25 ? mutate(ctx, args) : args };
}

/** After a start, run a few debugger commands in a row, as an agent would. */
function debuggerRun(ctx: Ctx): ToolCall[] {
  const { r } = ctx;
  const steps = ['step_over', 'step_into', 'step_out', 'continue_execution', 'where_am_i', 'examine_locals', 'list_breakpoints'];
  return Array.from({ length: 2 + r.int(4) }, () => ({ name: r.pick(steps), arguments: {} }));
}

function uidProcesses(uid: number | null): string[] {
  if (uid === null) return [];
  const ps = spawnSync('ps', ['-eo', 'ruid=,args='], { encoding: 'utf8' }).stdout;
  return ps.split('\n').filter((l) => l.trim().split(/\s+/)[0] === String(uid));
}

describe('harness fuzz', () => {
  const r = rng(SEED);
  const host = fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-fuzz-host-'));
  fs.writeFileSync(path.join(host, 'secret.py'), 'SECRET = 1\n');

  afterAll(() => {
    // The folder every link pointed at: nothing was created or changed in it.
    expect(fs.readdirSync(host)).toEqual(['secret.py']);
    expect(fs.readFileSync(path.join(host, 'secret.py'), 'utf8')).toBe('SECRET = 1\n');
  });

  test.each(TASKS.map((t) => [path.basename(t), t]))('%s: one bounded observation per call, a grade, nothing left behind', async (_name, taskDir) => {
    const task = loadTask(taskDir);
    const files = fs.readdirSync(task.workspaceDir);
    const lines = Math.max(...files.filter((f) => f.endsWith('.py')).map((f) => fs.readFileSync(path.join(task.workspaceDir, f), 'utf8').split('\n').length));
    const ctx: Ctx = { r, files, host, lines };
    const s = await HarnessSession.create({
      env: HARNESS_ENV,
      taskDir,
      limits: { bashTimeoutMs: 4000, bashIdleMs: 2000, debuggerWaitS: 1, debuggerStartWaitS: 8, inspectTimeoutMs: 3000 },
    });
    const results: ToolResult[] = [];
    const calls: ToolCall[] = [];
    try {
      while (calls.length < CALLS_PER_TASK) {
        const call = randomCall(ctx);
        const batch = call.name === 'start_debugger' ? [call, ...debuggerRun(ctx)] : [call];
        for (const c of batch) {
          calls.push(c);
          let res: ToolResult;
          try {
            res = await s.call(c);
          } catch (e) {
            throw new Error(`call ${calls.length - 1} (${JSON.stringify(c).slice(0, 300)}) threw: ${(e as Error).stack}`);
          }
          results.push(res);
          const where = `call ${calls.length - 1} ${JSON.stringify(c).slice(0, 200)}`;
          expect({ where, type: typeof res.output, ok: typeof res.ok }).toEqual({ where, type: 'string', ok: 'boolean' });
          expect({ where, over: res.output.length > OBSERVATION_MAX_CHARS }).toEqual({ where, over: false });
          expect({ where, sandbox: res.output.includes(s.sandbox.dir), task: res.output.includes(task.dir) }).toEqual({ where, sandbox: false, task: false });
          expect(res.tool.length).toBeLessThan(200);
        }
      }
      expect(results.length).toBe(calls.length);
      const done = await s.call({ name: 'done', arguments: {} });
      expect(done.ok).toBe(true);
      const g = await s.grade();
      expect(typeof g.passed).toBe('boolean');
      expect(Object.keys(g.tests).length + g.notes.length).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
    expect(fs.existsSync(s.sandbox.dir)).toBe(false);
    expect(uidProcesses(s.sandbox.uid)).toEqual([]);
  }, 120_000);
});
