/**
 * Harness latency benchmark (issue 3). Not a timed test: run it on a quiet machine and copy the table into
 * benchmarks/harness.md.
 *
 *   npx tsc -p tsconfig.json && node lib/benchmarks/harness-bench.js [runs=50]
 *
 * Measures median and p95 of: sandbox create+destroy, start_debugger to the first stop, print_variable and
 * step_over round trips (through HarnessSession.call, i.e. everything the model's call costs), and the floor in the
 * same run: a bare `python -c pass` and a bare `python -m pdb` command round trip (stdin/stdout, no sandbox).
 *
 * start_debugger is measured three ways, interleaved run by run so that the machine's load hits them alike:
 * - pre-warmed: the session's next bridge has finished loading pytest (in an episode it does so while the model
 *   thinks; here the wait for it is not timed);
 * - pre-warmed, back to back: the next call comes at once, so the bridge warmed after the previous start may still
 *   be loading (the worst case);
 * - cold: a session created with prewarmDebugger: false (the bridge starts Python and pytest inside the call).
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../common/config';
import { harnessEnv } from '../harness/env';
import { Sandbox } from '../harness/sandbox';
import { HarnessSession } from '../harness/session';

const runs = Number(process.argv[2] ?? 50);
const env = harnessEnv(loadConfig());
const python = env.python;

function stats(xs: number[]): { median: number; p95: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
  return { median: at(0.5), p95: at(0.95) };
}

async function time(n: number, fn: () => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await fn();
    out.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return out;
}

/** A throwaway task whose test loops long enough to step over many times. */
function benchTask(): string {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-bench-')), 'bench_loop_task');
  fs.mkdirSync(path.join(dir, 'workspace'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'fix'));
  fs.writeFileSync(path.join(dir, 'workspace', 'loop.py'), 'def total(n):\n    acc = 0\n    for i in range(n):\n        acc += i\n    return acc\n');
  fs.writeFileSync(path.join(dir, 'workspace', 'test_loop.py'), 'from loop import total\n\n\ndef test_total():\n    items = list(range(50))\n    assert total(10**6) > 0\n');
  fs.writeFileSync(path.join(dir, 'fix', 'loop.py'), 'def total(n):\n    return sum(range(n))\n');
  fs.writeFileSync(
    path.join(dir, 'task.json'),
    JSON.stringify({
      id: 'bench_loop_task', title: 'Benchmark loop task', category: 'logic', debugger: 'avoid', split: 'train', source_files: ['loop.py'],
      failing_tests: ['test_loop.py::test_total'], difficulty: 'easy', bug: 'none: a benchmark fixture, not a real task', time_limits: { test_seconds: 10 },
    }),
  );
  return dir;
}

/** Bare pdb: `python -m pdb` on the same loop, driven through stdin; time from sending a command to the prompt. */
async function barePdbRoundTrips(taskDir: string, n: number): Promise<number[]> {
  const script = path.join(taskDir, 'workspace', 'pdb_target.py');
  fs.writeFileSync(script, 'acc = 0\nfor i in range(10**6):\n    acc += i\n');
  const child = spawn(python, ['-m', 'pdb', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buf = '';
  let started = false;
  let waiter: (() => void) | null = null;
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    // A reply is complete when a fresh prompt follows some output of the command.
    if (/\n\(Pdb\) $|^\(Pdb\) $/.test(buf) && waiter && (buf.length > 6 || !started)) {
      const w = waiter;
      waiter = null;
      w();
    }
  });
  const send = (cmd: string) =>
    new Promise<void>((res) => {
      buf = '';
      waiter = res;
      child.stdin.write(cmd + '\n');
    });
  await new Promise<void>((res) => {
    waiter = res;
  });
  started = true;
  await send('next');
  await send('next');
  const out = await time(n, async () => {
    await send('p acc');
    if (!/^\d+\n/.test(buf)) throw new Error(`unexpected pdb reply ${JSON.stringify(buf)}`);
  });
  child.kill('SIGKILL');
  return out;
}

async function main(): Promise<void> {
  const taskDir = benchTask();
  const rows: [string, number[]][] = [];
  let startRatio = NaN;

  rows.push(['floor: bare `python -c pass` (host)', await time(runs, async () => void spawnSync(python, ['-c', 'pass']))]);
  const pdbRt = await barePdbRoundTrips(taskDir, runs);
  rows.push(['floor: bare pdb command round trip (`p acc`)', pdbRt]);

  rows.push(['sandbox create + destroy', await time(runs, async () => (await Sandbox.create({ harnessEnv: env, workspaceFrom: path.join(taskDir, 'workspace') })).destroy())]);
  const sb = await Sandbox.create({ harnessEnv: env, workspaceFrom: path.join(taskDir, 'workspace') });
  rows.push(['`python -c pass` inside the sandbox', await time(runs, async () => void (await sb.exec([python, '-c', 'pass'], { timeoutMs: 10_000 })))]);
  await sb.destroy();

  const session = await HarnessSession.create({ env, taskDir });
  const coldSession = await HarnessSession.create({ env, taskDir, prewarmDebugger: false });
  try {
    const startOn = async (s: HarnessSession, expect: 'prewarmed' | 'cold', out: number[]) => {
      const t = process.hrtime.bigint();
      const r = await s.call({ name: 'start_debugger', arguments: { test_file: 'test_loop.py', test_name: 'test_total' } });
      out.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (!r.ok) throw new Error(r.output);
      if (r.meta.bridge !== expect) throw new Error(`expected a ${expect} bridge, got ${String(r.meta.bridge)}`);
    };
    const warm: number[] = [];
    const cold: number[] = [];
    const backToBack: number[] = [];
    for (let i = 0; i < runs; i++) {
      if (!(await session.debuggerPrewarmed())) throw new Error('the pre-warmed bridge did not load');
      await startOn(session, 'prewarmed', warm);
      await startOn(coldSession, 'cold', cold);
    }
    for (let i = 0; i < runs; i++) await startOn(session, 'prewarmed', backToBack);
    rows.push(['start_debugger to first stop, pre-warmed', warm]);
    rows.push(['start_debugger to first stop, pre-warmed, back to back', backToBack]);
    rows.push(['start_debugger to first stop, cold (before)', cold]);
    startRatio = stats(cold).median / stats(warm).median;
    await coldSession.call({ name: 'stop_debugger', arguments: {} });
    await session.debuggerPrewarmed(); // the next bridge's loading must not compete with the round trips
    const bp = await session.call({ name: 'add_breakpoint', arguments: { file: 'loop.py', line: 4 } });
    const hit = await session.call({ name: 'continue_execution', arguments: {} });
    if (!bp.ok || !hit.ok) throw new Error(bp.output + hit.output);
    await session.call({ name: 'remove_breakpoint', arguments: { file: 'loop.py', line: 4 } });
    const pv = await time(runs, async () => {
      const r = await session.call({ name: 'print_variable', arguments: { expression: 'acc' } });
      if (!r.ok) throw new Error(r.output);
    });
    rows.push(['print_variable round trip', pv]);
    const so = await time(runs, async () => {
      const r = await session.call({ name: 'step_over', arguments: {} });
      if (!r.ok) throw new Error(r.output);
    });
    rows.push(['step_over round trip', so]);
  } finally {
    await session.close();
    await coldSession.close();
    fs.rmSync(path.dirname(taskDir), { recursive: true, force: true });
  }

  const floor = stats(pdbRt).median;
  console.log(`runs per row: ${runs}; node ${process.version}; ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})\n`);
  console.log('| measurement | median ms | p95 ms | median / bare pdb round trip |');
  console.log('|---|---:|---:|---:|');
  for (const [name, xs] of rows) {
    const s = stats(xs);
    console.log(`| ${name} | ${s.median.toFixed(2)} | ${s.p95.toFixed(2)} | ${(s.median / floor).toFixed(1)}× |`);
  }
  console.log(`\nstart_debugger median, cold / pre-warmed: ${startRatio.toFixed(2)}×`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
