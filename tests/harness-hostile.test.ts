/** Bug 3: hostile tool calls become observations the agent can read; only a loss of infrastructure propagates. */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HarnessInfraError, type HarnessSession } from '../harness/session';
import { loadTask } from '../taskset/task-loader';
import { DEFAULT_TASK, expectCall, withSession } from './harness-helpers';

const START = { test_file: 'test_articles.py', test_name: 'test_new_articles_start_untagged' };

/** Every call must answer within `ms` (a FIFO read used to block the event loop, so no timer could fire). */
async function prompt(s: HarnessSession, name: string, args: Record<string, unknown>, ms = 5000) {
  const t0 = Date.now();
  const r = await s.call({ name, arguments: args });
  expect(Date.now() - t0).toBeLessThan(ms);
  expect(r.ok).toBe(false);
  expect(r.output).not.toContain(s.sandbox.dir);
  return r;
}

describe('hostile arguments', () => {
  test('a NUL byte in any string argument is an observation', () =>
    withSession(DEFAULT_TASK, async (s) => {
      for (const [name, args] of [
        ['bash', { command: 'echo a\0b' }],
        ['read_file', { path: 'articles.py\0' }],
        ['edit_file', { path: 'x.py', old_text: '', new_text: 'a\0' }],
        ['run_tests', { target: 'test_articles.py\0' }],
        ['start_debugger', { test_file: 'test_articles.py', test_name: 'test_x\0' }],
        ['add_breakpoint', { file: 'articles.py\0', line: 3 }],
        ['run_expression', { expression: '1\0' }],
      ] as const) {
        const r = await prompt(s, name, args);
        expect(r.output).toMatch(/contains a NUL byte/);
      }
      await expectCall(s, 'bash', { command: 'echo alive' }, true);
    }));

  test('unknown tool names and argument keys are echoed bounded', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const big = 'x'.repeat(1024 * 1024);
      const r = await prompt(s, big, {});
      expect(r.output.length).toBeLessThan(600);
      expect(r.tool.length).toBeLessThan(200);
      const keys = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${big}${i}`, 1]));
      const k = await prompt(s, 'step_over', keys);
      expect(k.output.length).toBeLessThan(1200);
      expect(k.output).toMatch(/unknown argument\(s\)/);
    }));

  test('a lone surrogate in an expression, a condition or a path is an observation', () =>
    withSession(DEFAULT_TASK, async (s) => {
      await expectCall(s, 'start_debugger', START, true);
      expect((await prompt(s, 'print_variable', { expression: "'\uD800'" })).output).toMatch(/not valid Unicode/);
      await prompt(s, 'add_breakpoint', { file: 'articles.py', line: 3, condition: '"\uDC00"' });
      await prompt(s, 'read_file', { path: 'a\uD800.py' });
      await expectCall(s, 'where_am_i', {}, true);
    }));
});

describe('paths that are not regular files', () => {
  test('FIFO, socket, ENOTDIR, ENAMETOOLONG, ELOOP and a dangling folder link answer at once', () =>
    withSession(DEFAULT_TASK, async (s) => {
      await expectCall(s, 'bash', {
        command: [
          'mkfifo fifo.py',
          'python -c "import socket; socket.socket(socket.AF_UNIX).bind(\'sock.py\')"',
          'ln -s loop.py loop.py',
          'ln -s nowhere/deeper dangling',
          'ls -l | wc -l',
        ].join(' && '),
      }, true);
      const long = 'n'.repeat(300);
      for (const p of ['fifo.py', 'sock.py', 'articles.py/inner.py', `${long}.py`, 'loop.py', 'loop.py/x.py', 'dangling/x.py']) {
        await prompt(s, 'read_file', { path: p });
        await prompt(s, 'edit_file', { path: p, old_text: 'a', new_text: 'b' });
      }
      expect((await prompt(s, 'edit_file', { path: 'fifo.py', old_text: '', new_text: 'x' })).output).toMatch(/already exists|not a regular file/);
      expect((await prompt(s, 'edit_file', { path: 'articles.py/new.py', old_text: '', new_text: 'x' })).output).toMatch(/not a directory/);
      expect((await prompt(s, 'edit_file', { path: `${long}/x.py`, old_text: '', new_text: 'x' })).output).toMatch(/too long/);
      expect((await prompt(s, 'read_file', { path: 'loop.py' })).output).toMatch(/too many levels of symbolic links/);
      // The dangling folder link points inside the workspace: creating through it makes the folders it names.
      await expectCall(s, 'edit_file', { path: 'dangling/new.py', old_text: '', new_text: 'x\n' }, true);
      expect((await expectCall(s, 'bash', { command: 'cat nowhere/deeper/new.py' }, true)).output).toMatch(/^x\n/);
      await prompt(s, 'start_debugger', { test_file: 'fifo.py' });
      await prompt(s, 'run_tests', { target: 'loop.py' });
      await expectCall(s, 'start_debugger', START, true);
      await prompt(s, 'add_breakpoint', { file: 'fifo.py', line: 1 });
      await prompt(s, 'add_breakpoint', { file: 'sock.py', line: 1 });
      await prompt(s, 'add_breakpoint', { file: 'loop.py', line: 1 });
      await prompt(s, 'add_breakpoint', { file: `${long}.py`, line: 1 });
      await expectCall(s, 'where_am_i', {}, true);
    }));

  test('the program under test swaps its outcome report for a FIFO: run_tests still answers', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const conftest = 'import os\n\ndef pytest_sessionfinish(session):\n    p = os.environ["DEBUGRL_REPORT"]\n    os.unlink(p)\n    os.mkfifo(p)\n';
      await expectCall(s, 'edit_file', { path: 'conftest.py', old_text: '', new_text: conftest }, true);
      const t0 = Date.now();
      const r = await s.call({ name: 'run_tests', arguments: {} });
      expect(Date.now() - t0).toBeLessThan(30_000);
      expect(r.output).toMatch(/^Result: no tests ran/);
    }));

  test('a source file swapped for a FIFO grades as deleted, without blocking', () =>
    withSession(DEFAULT_TASK, async (s) => {
      await expectCall(s, 'bash', { command: 'rm articles.py && mkfifo articles.py' }, true);
      await expectCall(s, 'done', {}, true);
      const g = await s.grade();
      expect(g.passed).toBe(false);
      expect(g.notes.join(' ')).toMatch(/collection error/);
    }));

  test('a very deep and wide tree: listings stay bounded and quick', () =>
    withSession(DEFAULT_TASK, async (s) => {
      await expectCall(s, 'bash', { command: 'p=deep; for i in $(seq 1200); do p=$p/d; done; mkdir -p $p && touch $p/x.py; mkdir wide && cd wide && seq 5000 | xargs touch; echo ok' }, true);
      const r = await prompt(s, 'read_file', { path: 'nope.py' });
      expect(r.output.length).toBeLessThan(1000);
      await expectCall(s, 'start_debugger', START, true);
      const b = await prompt(s, 'add_breakpoint', { file: 'missing.py', line: 1 });
      expect(b.output).toMatch(/^no such file: missing.py. Python files in the workspace: articles.py/);
      expect(b.output.length).toBeLessThan(1000);
    }));
});

describe('the bridge does not depend on the workspace', () => {
  test('json.py, threading.py and a debugrl_native package in the workspace: start_debugger still stops in the test', () =>
    withSession(DEFAULT_TASK, async (s) => {
      await expectCall(s, 'bash', {
        command: 'for m in json threading queue argparse; do echo "raise ImportError(\'workspace $m\')" > $m.py; done; mkdir debugrl_native && echo "raise ImportError(\'workspace pkg\')" > debugrl_native/__init__.py',
      }, true);
      const r = await expectCall(s, 'start_debugger', START, true);
      expect(r.output).toMatch(/^Stopped before the test body at test_articles.py:10/);
      await expectCall(s, 'step_over', {}, true);
      await expectCall(s, 'examine_locals', {}, true);
    }));

  test('SystemExit and KeyboardInterrupt in run_expression are observations; the session lives on', () =>
    withSession(DEFAULT_TASK, async (s) => {
      await expectCall(s, 'start_debugger', START, true);
      for (const expression of ['raise SystemExit(3)', 'raise KeyboardInterrupt', 'import sys; sys.exit(0)', 'raise GeneratorExit']) {
        const r = await prompt(s, 'run_expression', { expression }, 3000);
        expect(r.output).toMatch(/^(SystemExit|KeyboardInterrupt|GeneratorExit)/);
      }
      expect((await expectCall(s, 'print_variable', { expression: '1 + 1' }, true)).output).toBe('1 + 1 = 2');
    }));

  test('values whose __iter__, items, __class__, __getattribute__ or __repr__ raise give normal observations', () =>
    withSession(DEFAULT_TASK, async (s) => {
      await expectCall(s, 'start_debugger', START, true);
      const classes = [
        'class BadIter(list):\n    def __iter__(self): raise RuntimeError("iter")',
        'class BadItems(dict):\n    def items(self): raise RuntimeError("items")',
        'class BadClass:\n    @property\n    def __class__(self): raise RuntimeError("class")',
        'class BadAttr:\n    def __getattribute__(self, n): raise RuntimeError("getattr")',
        'class BadRepr:\n    def __repr__(self): raise SystemExit("repr")',
        'class BadLen(list):\n    def __len__(self): raise KeyboardInterrupt',
      ];
      for (const c of classes) await expectCall(s, 'run_expression', { expression: c }, true);
      await expectCall(s, 'run_expression', { expression: 'vals = [BadIter([1]), BadItems(a=1), BadClass(), BadAttr(), BadRepr(), BadLen([1])]' }, true);
      for (const i of [0, 1, 2, 3, 4, 5]) {
        const r = await expectCall(s, 'print_variable', { expression: `vals[${i}]` }, true);
        expect(r.output).toMatch(/^vals\[\d\] = /);
      }
      await expectCall(s, 'run_expression', { expression: 'a, b, c, d, e, f = vals' }, true);
      const locals = await expectCall(s, 'examine_locals', {}, true);
      expect(locals.output).toMatch(/^c = /m);
      expect(locals.output).not.toMatch(/bridge error/);
      await expectCall(s, 'print_variable', { expression: 'eval("[" * 200000 + "]" * 200000)' }, false);
    }));

  test('a bridge reply flagged internal is an infrastructure error, not an observation', () =>
    withSession(DEFAULT_TASK, async (s) => {
      await expectCall(s, 'start_debugger', START, true);
      // Only a harness bug sends the bridge a malformed request (no tool schema lets one through): send one directly.
      await expect(s.debugger.command('add_breakpoint', { file: 'articles.py' })).rejects.toThrow(HarnessInfraError);
    }));
});

describe('what the sandbox can see of the host', () => {
  // Known limit: /proc/self/mountinfo names the host folders bound at /workspace and /tmp (the sandbox's random id,
  // never the task's); every command line inside is free of host paths.
  test('/proc/1/cmdline and mountinfo show neither the task folder nor its id; no command line shows the sandbox folder', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const task = loadTask(DEFAULT_TASK);
      const r = await expectCall(s, 'bash', { command: 'tr "\\0" " " < /proc/1/cmdline; echo; for p in /proc/[0-9]*; do tr "\\0" " " < $p/cmdline 2>/dev/null; echo; done' }, true);
      expect(r.output).toMatch(/^bwrap --args \d+ -- /);
      expect(r.output).not.toContain(task.dir);
      expect(r.output).not.toContain(task.spec.id);
      expect(r.output).not.toContain(s.sandbox.dir);
      const mounts = await expectCall(s, 'bash', { command: 'cat /proc/self/mountinfo' }, true);
      expect(mounts.output).not.toContain(task.dir);
      expect(mounts.output).not.toContain(task.spec.id);
    }));
});

describe('the harness CLI', () => {
  test('SIGTERM and SIGINT remove the sandbox folder and its processes', async () => {
    const cli = path.join(__dirname, '..', 'lib', 'workers', 'cli.js');
    expect(fs.existsSync(cli)).toBe(true); // built by `npx tsc -p tsconfig.json`
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const data = fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-cli-'));
      const script = path.join(data, 'calls.jsonl');
      fs.writeFileSync(script, `${JSON.stringify({ name: 'bash', arguments: { command: 'echo started; sleep 50' } })}\n`);
      const child = spawn(process.execPath, [cli, 'harness', '--task', DEFAULT_TASK, '--script', script], { env: { ...process.env, DEBUGRL_DATA_DIR: data }, stdio: 'ignore' });
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      const sandboxes = path.join(data, 'sandboxes');
      const t0 = Date.now();
      while (!(fs.existsSync(sandboxes) && fs.readdirSync(sandboxes).length) && Date.now() - t0 < 60_000) await new Promise((r) => setTimeout(r, 100));
      const made = fs.readdirSync(sandboxes);
      expect(made.length).toBe(1);
      await new Promise((r) => setTimeout(r, 1500)); // the bash call is running inside
      child.kill(signal);
      child.kill(signal); // twice: a second signal must not cut the clean-up short
      expect(await exited).toBe(signal === 'SIGINT' ? 130 : 143);
      expect(fs.readdirSync(sandboxes)).toEqual([]);
      const left = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout.split('\n').filter((l) => l.includes('sleep 50'));
      expect(left).toEqual([]);
    }
  }, 240_000);
});
