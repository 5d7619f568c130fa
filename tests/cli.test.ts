/** The built `debugrl` CLI (lib/workers/cli.js, after `npx tsc`), run as a user runs it, against the real services:
 * per-command help, configuration mistakes stopped before any workflow starts, and an evaluation that is detached,
 * re-attached, and one whose episodes end in harness errors. */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EvaluationInput } from '../common/evaluation';
import { evaluationInputFrom, formatProgress } from '../workers/commands/eval';
import { describeError } from '../workers/cli-kit';
import { formatSftProgress } from '../workers/commands/sft';
import { FIXTURE_TASKS, fixCalls, inProcessWorkers, writeScript, type InProcessWorkers } from './helpers/episodes';
import { quietRuntime } from './helpers/services';

const ROOT = path.resolve(__dirname, '..');
const CLI = path.join(ROOT, 'lib/workers/cli.js');
const TASK = 'shared_default_tags';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the CLI without blocking this process's event loop, so that the in-process Temporal workers keep working. */
function cli(args: string[], env: Record<string, string> = {}, timeoutMs = 90_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, DEBUGRL_TASKS_DIR: FIXTURE_TASKS, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const commands = fs
  .readdirSync(path.join(ROOT, 'lib/workers/commands'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => f.replace(/\.js$/, ''));

describe('eval helpers (unit)', () => {
  it('the progress line separates failed tests from crashed workflows', () => {
    // 10 done: 6 passed, 1 workflow crashed, so 10 − 6 − 1 = 3 failed their tests
    const line = formatProgress({ evaluationId: 'e', total: 20, done: 10, running: 4, failed: 1, passed: 6, startedAtMs: 0, phase: 'running' }, 100_000);
    // 100 s for 10 episodes, 10 to go: ETA 100 s = 1m40s
    expect(line).toContain('10/20 done · 4 running · 6 passed · 3 failed tests · 1 crashed · ETA 1m40s');
  });

  it('k defaults to min(3, episodes); an explicit k is kept', () => {
    expect(evaluationInputFrom({ policy: 'embedded', split: 'test', episodes: 1, preflight: true }).k).toBe(1);
    expect(evaluationInputFrom({ policy: 'embedded', split: 'test', episodes: 8, preflight: true }).k).toBe(3);
    expect(evaluationInputFrom({ policy: 'embedded', split: 'test', preflight: true }).k).toBeUndefined();
    expect(evaluationInputFrom({ policy: 'embedded', split: 'test', episodes: 2, k: 2, preflight: true }).k).toBe(2);
    expect(evaluationInputFrom({ policy: 'embedded', split: 'test', rerun: true, preflight: true })).toMatchObject({ rerun: true });
    expect(evaluationInputFrom({ policy: 'embedded', split: 'test', preflight: true })).not.toHaveProperty('rerun');
  });

  it('--first-seed shifts every episode seed; left out, the input has no field and the schema says 0', () => {
    expect(EvaluationInput.parse(evaluationInputFrom({ policy: 'embedded', split: 'starter', firstSeed: 100, preflight: true })).firstSeed).toBe(100);
    const plain = evaluationInputFrom({ policy: 'embedded', split: 'starter', preflight: true });
    expect(plain).not.toHaveProperty('firstSeed');
    expect(EvaluationInput.parse(plain).firstSeed).toBe(0);
  });

  it('describeError walks the cause chain', () => {
    const root = Object.assign(new Error('unknown task "x"'), { type: 'InvalidInput' });
    const err = new Error('Activity task failed', { cause: root });
    expect(describeError(err)).toBe('Error: Activity task failed\n  caused by Error [InvalidInput]: unknown task "x"');
  });
});

describe('debugrl sft train', () => {
  it('the progress line has the finished epochs and the running step from the activity heartbeat', () => {
    expect(formatSftProgress(3, [], { epoch: 1, phase: 'starting the learner' })).toBe('0/3 epoch(s) done · running epoch 1 (starting the learner)');
    expect(formatSftProgress(3, [{ epoch: 1, trainLoss: 0.81234, heldOutLoss: 0.7 }], { epoch: 2, phase: 'training', step: 4, of: 10, meanLoss: 0.5 })).toBe(
      '1/3 epoch(s) done · epoch 1: train loss 0.8123, held-out 0.7000 · running epoch 2 step 4/10 (training, mean loss so far 0.5000)',
    );
    // a heartbeat left from an epoch that has finished since is not shown as running
    expect(formatSftProgress(2, [{ epoch: 1, trainLoss: 1, heldOutLoss: null }], { epoch: 1, phase: 'held-out loss' })).toBe('1/2 epoch(s) done · epoch 1: train loss 1.0000, held-out n/a');
  });

  it('a learning rate that is not a positive number is a usage error (exit 2)', async () => {
    const r = await cli(['sft', 'train', '--corpus', '/tmp', '--lr', 'fast'], { DEBUGRL_TEMPORAL_ADDRESS: '127.0.0.1:9' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--lr needs a number above 0 and at most 1, got "fast"');
  });

  it('a folder that is not a corpus is refused before any workflow starts (exit 2)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'not-a-corpus-'));
    const r = await cli(['sft', 'train', '--corpus', dir], { DEBUGRL_TEMPORAL_ADDRESS: '127.0.0.1:9' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${dir} has no train.tokens.jsonl`);
  });
});

describe('debugrl --help', () => {
  it('lists every command', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const c of commands) expect(r.stdout).toMatch(new RegExp(`^  ${c}\\b`, 'm'));
  });

  it.each(commands)('%s --help prints its usage and exits 0', async (name) => {
    const r = await cli([name, '--help']);
    expect(r.stderr).not.toMatch(/unknown option/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`debugrl ${name}`);
  });

  it('eval --help names the options as the README does', async () => {
    const r = await cli(['eval', '--help']);
    for (const flag of ['--policy', '--split', '--tasks', '--episodes', '--k', '--compare', '--tools', '--max-turns', '--max-context', '--detach', '--attach', '--rerun']) {
      expect(r.stdout).toContain(flag);
    }
  });

  it('an unknown command or option is a usage error (exit 2)', async () => {
    const a = await cli(['frobnicate']);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain("unknown command 'frobnicate'");
    const b = await cli(['eval', '--policy', 'embedded', '--split', 'test', '--episodes', 'many']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('--episodes needs a whole number, got "many"');
  });
});

describe('debugrl eval stops configuration mistakes before the workflow starts (exit 2)', () => {
  // An unreachable Temporal address proves that nothing was started: the checks come first.
  const noTemporal = { DEBUGRL_TEMPORAL_ADDRESS: '127.0.0.1:9' };

  it('a scripted file that does not exist', async () => {
    const r = await cli(['eval', '--policy', 'scripted:/nonexistent/calls.jsonl', '--tasks', TASK], noTemporal);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('scripted policy: no such file or folder /nonexistent/calls.jsonl');
  });

  it('a malformed JSONL line, named by file and line', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-cli-')), 'calls.jsonl');
    fs.writeFileSync(file, '{"name": "run_tests", "arguments": {}}\n{"name": "bash", "arguments": \n');
    const r = await cli(['eval', '--policy', `scripted:${file}`, '--tasks', TASK], noTemporal);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:2: not valid JSON`);
  });

  it('a script folder without a file for one of the tasks', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-cli-'));
    fs.writeFileSync(path.join(dir, `${TASK}.jsonl`), '{"name": "done"}\n');
    const r = await cli(['eval', '--policy', `scripted:${dir}`, '--tasks', `${TASK},nested_copy_alias`], noTemporal);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no such script: ${path.join(dir, 'nested_copy_alias.jsonl')}`);
  });

  it('an unknown task id', async () => {
    const r = await cli(['eval', '--policy', writeSpec(), '--tasks', `${TASK},no_such_task`], noTemporal);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`unknown task "no_such_task" in ${FIXTURE_TASKS}`);
  });

  it('an embedded adapter that the server has not loaded (real embedded server)', async () => {
    const r = await cli(['eval', '--policy', 'embedded:no-such-adapter', '--tasks', TASK], noTemporal);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/adapter "no-such-adapter" is not loaded on the embedded server at \S+; it serves: default/);
  });

  it('a context limit above the maximum the server reports', async () => {
    const r = await cli(['eval', '--policy', 'embedded', '--tasks', TASK, '--max-context', '1000000'], noTemporal);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-context 1000000 does not fit embedded: its server reports a maximum context of \d+ tokens/);
  });

  it('a policy server that does not answer', async () => {
    const r = await cli(['eval', '--policy', 'openai:some-model@http://127.0.0.1:9/v1', '--tasks', TASK], noTemporal);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the policy server at http://127.0.0.1:9/v1 is not reachable');
  });

  it('an explicit k above the episodes per task', async () => {
    const r = await cli(['eval', '--policy', writeSpec(), '--tasks', TASK, '--episodes', '2', '--k', '3'], noTemporal);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pass@3 needs at least 3 episodes per task, got 2');
  });
});

function writeSpec(): string {
  return `scripted:${writeScript([{ name: 'done', arguments: {} }])}`;
}

describe('debugrl eval against Temporal (in-process workers on their own queue)', () => {
  let w: InProcessWorkers;
  let env: Record<string, string>;
  beforeAll(async () => {
    quietRuntime();
    w = await inProcessWorkers('cli-test');
    env = { DEBUGRL_TASK_QUEUE: w.taskQueue };
  });
  afterAll(async () => w.close());

  it('--episodes 1 runs with k capped at 1; --detach returns, and `eval attach` follows it to the end', async () => {
    const fix = writeScript([...fixCalls(path.join(FIXTURE_TASKS, TASK)), { name: 'done', arguments: {} }]);
    const id = `cli-test-detach-${Date.now()}`;
    const started = await cli(['eval', '--policy', `scripted:${fix}`, '--tasks', TASK, '--episodes', '1', '--id', id, '--detach'], env);
    expect(started.stderr).toContain(`checked: 1 task(s), policy scripted:${fix}`);
    expect(started.code).toBe(0);
    expect(started.stdout).toContain(`re-attach with: npx debugrl eval --attach ${id}`);

    const attached = await cli(['eval', 'attach', id], env);
    expect(attached.code).toBe(0);
    expect(attached.stdout).toMatch(/pass@1 100\.0%\s+pass@1 100\.0%\s+\(1 episodes\)/);
    expect(attached.stdout).toContain(`report: `);

    const again = await cli(['eval', '--attach', id], env); // the option form, on a finished run
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('pass@1 100.0%');
  });

  it('episodes that end in harness errors make the exit status 1 and are listed', async () => {
    // Skip the checks, so that the worker meets the missing script at run time: a harness error, not a failure.
    const id = `cli-test-errors-${Date.now()}`;
    const r = await cli(['eval', '--policy', 'scripted:/nonexistent/calls.jsonl', '--tasks', TASK, '--episodes', '2', '--id', id, '--no-preflight'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('2 episode(s) ended in a harness error (exit reason "error")');
    expect(r.stdout).toContain('no such script: /nonexistent/calls.jsonl');
  });

  it('a failed workflow prints its cause chain down to the root cause', async () => {
    const id = `cli-test-failed-${Date.now()}`;
    const r = await cli(['eval', '--policy', writeSpec(), '--tasks', 'no_such_task', '--id', id, '--no-preflight'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`evaluation ${id} failed`);
    expect(r.stderr).toMatch(/caused by ApplicationFailure \[InvalidInput\]: unknown task "no_such_task"/);
  });

  it('an existing --id is refused unless --rerun, which stores a new run under its own id', async () => {
    const id = `cli-test-rerun-${Date.now()}`;
    const args = ['eval', '--policy', writeSpec(), '--tasks', TASK, '--episodes', '1', '--id', id];
    expect((await cli(args, env)).code).toBe(0);
    const again = await cli(args, env);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`evaluation "${id}" exists already; add --rerun for a new run of it`);
    // without the CLI's check, the workflow refuses it, and the CLI shows why
    const unchecked = await cli([...args, '--no-preflight'], env);
    expect(unchecked.code).toBe(1);
    expect(unchecked.stderr).toMatch(new RegExp(`caused by ApplicationFailure \\[InvalidInput\\]: evaluation "${id}" already exists`));
    const rerun = await cli([...args, '--rerun'], env);
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain(`reports/${id}-run2/report.html`);
  });

  it('`eval attach` of a workflow that does not exist is a usage error', async () => {
    const r = await cli(['eval', 'attach', `cli-test-nothing-${Date.now()}`], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no evaluation workflow "cli-test-nothing-');
  });
});
