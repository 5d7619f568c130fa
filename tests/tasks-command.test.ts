/** `debugrl tasks …`: argument parsing, exit codes and what a person reads when a task fails. */
import * as path from 'node:path';
import { parseValidateArgs, run } from '../workers/commands/tasks';

const FIXTURES = path.join(__dirname, 'fixtures', 'bad-tasks');

async function capture(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = jest.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const before = process.env.DEBUGRL_TASKS_DIR;
  process.env.DEBUGRL_TASKS_DIR = FIXTURES;
  try {
    const code = await run(args);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
    if (before === undefined) delete process.env.DEBUGRL_TASKS_DIR;
    else process.env.DEBUGRL_TASKS_DIR = before;
  }
}

describe('parseValidateArgs', () => {
  it('defaults to every task, 2 jobs and 3 runs', () => {
    expect(parseValidateArgs([])).toEqual({ tasks: [], jobs: 2, runs: 3 });
  });

  it('collects repeated --task and reads numbers', () => {
    expect(parseValidateArgs(['--task', 'a', '--jobs', '4', '--task', 'b', '--runs', '1'])).toEqual({ tasks: ['a', 'b'], jobs: 4, runs: 1 });
  });

  it.each([
    [['--jobs'], '--jobs needs a value'],
    [['--jobs', '0'], '--jobs must be at least 1'],
    [['--jobs', 'two'], '--jobs needs a number'],
    [['--runs', '1.5'], '--runs must be a whole number'],
    [['--verbose'], 'unknown option "--verbose" for validate'],
  ])('rejects %j', (args, message) => {
    expect(() => parseValidateArgs(args)).toThrow(message);
  });
});

describe('run', () => {
  it('exits 2 with usage for a bad subcommand, an unknown task and a bad stats flag', async () => {
    expect((await capture(['frobnicate'])).code).toBe(2);
    const missing = await capture(['validate', '--task', 'no_such_task']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no task "no_such_task"/);
    expect((await capture(['stats', '--yaml'])).code).toBe(2);
  });

  it('exits 0 for a valid task and 1 with every reason for a failing one', async () => {
    const ok = await capture(['validate', '--task', 'valid_control', '--runs', '1']);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/1 of 1 tasks valid/);
    expect(ok.err).toMatch(/\[1\/1\] ok {3}valid_control/);

    const bad = await capture(['validate', '--task', 'fix_unchanged', '--task', path.join(FIXTURES, 'telltale_comment'), '--runs', '1']);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/0 of 2 tasks valid/);
    expect(bad.out).toContain("fix_unchanged:\n  - fix/calc.py is identical to workspace/calc.py: that file's fix changes nothing\n  - with fix/ applied: still fails test_calc.py::test_add (failed)");
    expect(bad.out).toContain('telltale_comment:\n  - workspace/calc.py line 5: "fix me" (# FIXME: sign flipped) points at the bug');
  });

  it('prints stats as JSON with --json', async () => {
    const r = await capture(['stats', '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out) as { tasks: number; unreadable: unknown[]; seedMedian: unknown };
    expect(s.unreadable).toHaveLength(1); // schema_extra_key
    expect(s.tasks).toBeGreaterThanOrEqual(13);
    expect(s.seedMedian).toEqual({ sourceLines: 132, files: 3 });
  });
});
