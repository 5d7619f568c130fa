/** `debugrl tasks …`: argument parsing, exit codes and what a person reads when a task fails. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTasksCli } from './helpers/tasks-cli';

const FIXTURES = path.join(__dirname, 'fixtures', 'bad-tasks');

const capture = (args: string[]) => runTasksCli(FIXTURES, args);

describe('usage', () => {
  it.each([
    [['validate', '--jobs'], /option '--jobs <n>' argument missing/],
    [['validate', '--jobs', '0'], /--jobs must be between 1 and 16, got 0/],
    [['validate', '--jobs', 'two'], /--jobs needs a whole number, got "two"/],
    [['validate', '--runs', '1.5'], /--runs needs a whole number/],
    [['validate', '--sample', '2'], /--sample must be a number from 0 to 1/],
    [['validate', '--verbose'], /unknown option '--verbose'/],
    [['calibrate'], /required option '--from <evaluation-id...>' not specified/],
  ])('exits 2 for %j', async (args, message) => {
    const r = await capture(args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
  });

  it('refuses to update the manifest from fewer than 3 runs', async () => {
    const r = await capture(['validate', '--task', 'valid_control', '--runs', '1', '--update-manifest']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--update-manifest records only tasks that passed 3 runs/);
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

  it('writes Figure 6 with --plot', async () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'plot-')), 'fig.svg');
    const r = await capture(['stats', '--plot', out]);
    expect(r.code).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toMatch(/^<svg [^>]*>[\s\S]*<\/svg>\n$/);
    fs.rmSync(path.dirname(out), { recursive: true });
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
