/** The task validator against small broken fixture tasks (tests/fixtures/bad-tasks/), one defect each, plus a valid
 * control. Dynamic checks run the real bubblewrap sandbox through the harness grader, once per variant to keep the
 * suite short; the repeat-run check is driven with a scripted grader, since a real task cannot be made flaky on
 * demand. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Grade } from '../harness/grader';
import { loadTask } from '../taskset/task-loader';
import {
  buggyRunProblem,
  dynamicProblems,
  findTelltale,
  fixedRunProblem,
  formatTable,
  staticProblems,
  validateAll,
  validateTaskDir,
  type GradeFn,
} from '../taskset/validator';

const FIXTURES = path.join(__dirname, 'fixtures', 'bad-tasks');
const fixture = (name: string) => path.join(FIXTURES, name);
const staticOf = (name: string) => staticProblems(loadTask(fixture(name)));

function grade(tests: Grade['tests'], extra: Partial<Grade> = {}): Grade {
  const passed = Object.values(tests).every((o) => o === 'passed' || o === 'skipped');
  return { passed, tests, durationMs: 100, notes: [], ...extra };
}

describe('static checks', () => {
  it('finds nothing wrong with the valid control task', () => {
    expect(staticOf('valid_control')).toEqual([]);
  });

  it('rejects a fix file that is not a declared source file', () => {
    expect(staticOf('fix_outside_sources')).toEqual([expect.stringMatching(/^fix\/helper\.py is not listed in source_files/)]);
  });

  it('rejects a fix identical to the buggy file', () => {
    expect(staticOf('fix_unchanged')).toEqual(['fix/calc.py is identical to workspace/calc.py: that file\'s fix changes nothing']);
  });

  it('rejects a fix/ folder inside workspace/', () => {
    const problems = staticOf('fix_dir_in_workspace');
    expect(problems).toContain('workspace/fix/calc.py: the held-back fix or task.json must never be inside workspace/');
    // The copy is also byte-identical to the fix, which is the same leak seen from the other side.
    expect(problems).toContain('workspace/fix/calc.py is identical to fix/calc.py: the sandbox would hold the fixed code');
  });

  it('rejects a workspace file that is a copy of the fix under another name', () => {
    expect(staticOf('fixed_copy_in_workspace')).toEqual(['workspace/calc_reference.py is identical to fix/calc.py: the sandbox would hold the fixed code']);
  });

  it('rejects a telltale comment', () => {
    expect(staticOf('telltale_comment')).toEqual([expect.stringMatching(/^workspace\/calc\.py line 5: "fix me" \(# FIXME: sign flipped\) points at the bug$/)]);
  });

  it("rejects a workspace that repeats the task's bug description", () => {
    expect(staticOf('bug_text_in_workspace')).toEqual([expect.stringMatching(/^workspace\/calc\.py repeats the task's bug description \("add subtracts its second/)]);
  });

  it('rejects a test file among the source files', () => {
    expect(staticOf('test_in_source_files')).toEqual([expect.stringMatching(/^source_files lists test_calc\.py, a test or conftest file/)]);
  });

  it('rejects compiled files and empty fixes (built in a temp copy: caches are not committed)', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'validator-'));
    try {
      const dir = path.join(tmp, 'valid_control');
      fs.cpSync(fixture('valid_control'), dir, { recursive: true });
      fs.mkdirSync(path.join(dir, 'workspace', '__pycache__'));
      fs.writeFileSync(path.join(dir, 'workspace', '__pycache__', 'calc.cpython-311.pyc'), 'x');
      fs.rmSync(path.join(dir, 'fix', 'calc.py'));
      expect(staticProblems(loadTask(dir))).toEqual([
        'fix/ is empty: there is no held-back fix',
        'workspace/__pycache__/calc.cpython-311.pyc: compiled Python may carry the fixed code; delete __pycache__ folders',
      ]);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('telltale words', () => {
  it.each([
    ['# bug: sign flipped', /"bug"/],
    ['buggy_total = 0', /"bug"/],
    ['# TODO: fix the rounding', /"TODO … fix"/],
    ['    x += 1  # off-by-one here', /"off by one"/],
    ['    return a  # careful', /warning word in a comment/],
  ])('flags %j', (line, what) => {
    expect(findTelltale(`a = 1\n${line}\n`)).toMatch(what);
  });

  it.each(['logging.DEBUG', 'def debug_dump(self):', 'raise ValueError("wrong password")', 'prefix = "#" + name', 'bugle = 3'])('allows %j', (line) => {
    expect(findTelltale(line)).toBeNull();
  });
});

describe('outcome checks (pure)', () => {
  const declared = ['t.py::a'];

  it('accepts exactly the declared failing set', () => {
    expect(buggyRunProblem(declared, grade({ 't.py::a': 'failed', 't.py::b': 'passed', 't.py::c': 'skipped' }))).toBeNull();
  });

  it('names extra failures, declared tests that pass, and declared tests that never ran', () => {
    expect(buggyRunProblem(['t.py::a', 't.py::z'], grade({ 't.py::a': 'passed', 't.py::b': 'timeout', 't.py::c': 'failed' }))).toBe(
      'failing set differs from failing_tests: also fails t.py::b (timeout), t.py::c (failed); passes declared t.py::a; never ran declared t.py::z',
    );
  });

  it('needs at least one failure and at least one collected test', () => {
    expect(buggyRunProblem(declared, grade({ 't.py::a': 'passed' }))).toBe('the buggy source fails no visible test');
    expect(buggyRunProblem(declared, grade({}, { notes: ['collection error: t.py: ImportError'] }))).toBe(
      'no test was collected (collection error: t.py: ImportError)',
    );
  });

  it('reports what still fails with the fix, or the grader notes when nothing did', () => {
    expect(fixedRunProblem(grade({ 't.py::a': 'passed' }))).toBeNull();
    expect(fixedRunProblem(grade({ 't.py::a': 'error' }))).toBe('with fix/ applied: still fails t.py::a (error)');
    expect(fixedRunProblem(grade({ 't.py::a': 'passed' }, { passed: false, notes: ['pytest exited with status 3'] }))).toBe(
      'with fix/ applied: pytest exited with status 3',
    );
  });
});

describe('repeated runs (scripted grader)', () => {
  const task = loadTask(fixture('valid_control'));
  const fixedOk = grade({ 'test_calc.py::test_add': 'passed', 'test_calc.py::test_double': 'passed' });
  const buggyOk = grade({ 'test_calc.py::test_add': 'failed', 'test_calc.py::test_double': 'passed' });

  function scripted(buggy: Grade[]): { fn: GradeFn; calls: number[] } {
    const calls: number[] = [];
    let i = 0;
    const fn: GradeFn = async (_t, files, timeoutSec) => {
      calls.push(timeoutSec);
      return Object.keys(files).length ? fixedOk : buggy[i++ % buggy.length]!;
    };
    return { fn, calls };
  }

  it('passes when every run agrees, running each variant `runs` times', async () => {
    const s = scripted([buggyOk]);
    expect(await dynamicProblems(task, { runs: 3, grade: s.fn })).toEqual([]);
    expect(s.calls).toEqual([25, 25, 25, 25, 25, 25]); // test_seconds 20 + 5 s of kill slack, 3 buggy + 3 fixed
  });

  it('fails a task whose buggy outcome changes between runs', async () => {
    const flaky = grade({ 'test_calc.py::test_add': 'passed', 'test_calc.py::test_double': 'passed' });
    const problems = await dynamicProblems(task, { runs: 3, grade: scripted([buggyOk, flaky, buggyOk]).fn });
    expect(problems).toEqual([
      'buggy source: the buggy source fails no visible test',
      'buggy outcomes differ between the 3 runs: the task is not deterministic',
    ]);
  });

  it('fails a run over the time limit even when its outcome is right', async () => {
    const slow = { ...buggyOk, durationMs: 21_500 };
    expect(await dynamicProblems(task, { runs: 1, grade: scripted([slow]).fn })).toEqual([
      'buggy run took 21.5 s, over time_limits.test_seconds = 20',
    ]);
  });
});

describe('in the sandbox', () => {
  const once = { runs: 1 };

  it('passes the valid control task', async () => {
    const r = await validateTaskDir(fixture('valid_control'), once);
    expect(r).toMatchObject({ id: 'valid_control', ok: true, reasons: [] });
  });

  it('fails a task whose buggy source fails nothing', async () => {
    const r = await validateTaskDir(fixture('fails_nothing'), once);
    expect(r.reasons).toEqual(['buggy source: the buggy source fails no visible test']);
  });

  it('fails a task whose buggy source fails an undeclared test', async () => {
    const r = await validateTaskDir(fixture('undeclared_failure'), once);
    expect(r.reasons).toEqual(['buggy source: failing set differs from failing_tests: also fails test_calc.py::test_double (failed)']);
  });

  it('fails a task whose fix leaves a test failing', async () => {
    const r = await validateTaskDir(fixture('fix_still_fails'), once);
    expect(r.reasons).toEqual(['with fix/ applied: still fails test_calc.py::test_add (failed)']);
  });

  it('fails a task whose tests do not import', async () => {
    const r = await validateTaskDir(fixture('collection_error'), once);
    // The grader keeps the first line and the end of pytest's message, so the exception itself is in the reason.
    expect(r.reasons[0]).toMatch(/^buggy source: no test was collected \(collection error: test_calc\.py: ImportError while importing test module/);
    expect(r.reasons[0]).toMatch(/cannot import name 'triple'/);
    expect(r.reasons[1]).toMatch(/^with fix\/ applied: .*collection error/);
  });

  it('fails a task that runs over its time limit', async () => {
    const r = await validateTaskDir(fixture('too_slow'), once);
    expect(r.reasons).toEqual([
      expect.stringMatching(/^buggy run took \d+\.\d s, over time_limits\.test_seconds = 1$/),
      expect.stringMatching(/^fixed run took \d+\.\d s, over time_limits\.test_seconds = 1$/),
    ]);
  });

  it('reports an unreadable task.json without running anything', async () => {
    const r = await validateTaskDir(fixture('schema_extra_key'), once);
    expect(r).toMatchObject({ id: 'schema_extra_key', ok: false, seconds: 0 });
    expect(r.reasons).toEqual([expect.stringMatching(/task\.json: \(root\): Unrecognized key: "hints"/)]);
  });

  it('validates several tasks with bounded concurrency, reporting each as it finishes, in input order', async () => {
    const seen: string[] = [];
    const dirs = ['valid_control', 'fix_unchanged', 'schema_extra_key'].map(fixture);
    const results = await validateAll(dirs, { runs: 1, jobs: 2, onResult: (r, done, total) => seen.push(`${done}/${total}`) });
    expect(results.map((r) => [r.id, r.ok])).toEqual([
      ['valid_control', true],
      ['fix_unchanged', false],
      ['schema_extra_key', false],
    ]);
    expect(seen).toEqual(['1/3', '2/3', '3/3']);
    const table = formatTable(results).split('\n');
    expect(table[0]).toMatch(/^task\s+split\s+category\s+result\s+seconds\s+reason$/);
    expect(table[3]).toMatch(/^fix_unchanged\s+train\s+logic\s+FAIL\s+\d+\.\d\s+fix\/calc\.py is identical .* \(\+1 more\)$/);
  });
});
