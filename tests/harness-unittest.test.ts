/** Bug 4: tests written as unittest.TestCase methods can be debugged (pytest runs them without pytest_pyfunc_call).
 * Bug 7: start_debugger without test_name does what its description says: the whole file runs, and the debugger
 * stops before the first test body. */
import * as path from 'node:path';
import { HarnessSession } from '../harness/session';
import { toolSpecs } from '../harness/tools';
import { loadTask } from '../taskset/task-loader';
import { DEFAULT_TASK, expectCall, HARNESS_ENV, withSession } from './harness-helpers';

const LEDGER_TASK = path.join(__dirname, 'fixtures', 'unittest-tasks', 'ledger_skips_first_entry');

describe('unittest.TestCase tests', () => {
  test('start_debugger on a TestCase method stops in the test body (after setUp), and stepping finds the bug', () =>
    withSession(LEDGER_TASK, async (s) => {
      const start = await expectCall(s, 'start_debugger', { test_file: 'test_ledger.py', test_name: 'LedgerTest::test_balance_sums_every_entry' }, true);
      expect(start.output).toMatch(/^Stopped before the test body at test_ledger.py:11 in LedgerTest.test_balance_sums_every_entry/);
      expect((await expectCall(s, 'print_variable', { expression: 'self.ledger.entries' }, true)).output).toBe('self.ledger.entries = []');
      await expectCall(s, 'add_breakpoint', { file: 'ledger.py', line: 11 }, true);
      const hit = await expectCall(s, 'continue_execution', {}, true);
      expect(hit.output).toMatch(/Stopped at breakpoint ledger.py:11 \(ledger.py:11 in Ledger.balance\)/);
      expect((await expectCall(s, 'print_variable', { expression: 'amount' }, true)).output).toBe('amount = 7');
      const end = await expectCall(s, 'continue_execution', {}, true);
      expect(end.output).toMatch(/test_ledger.py::LedgerTest::test_balance_sums_every_entry failed: AssertionError: 7 != 12/);
    }));

  test('the fix passes the grader, the bug fails it (a session made from an already-loaded task)', async () => {
    const s = await HarnessSession.create({ env: HARNESS_ENV, task: loadTask(LEDGER_TASK) });
    try {
      expect((await s.grade()).passed).toBe(false);
      await expectCall(s, 'edit_file', { path: 'ledger.py', old_text: 'self.entries[1:]', new_text: 'self.entries' }, true);
      await expectCall(s, 'done', {}, true);
      expect((await s.grade()).passed).toBe(true);
    } finally {
      await s.close();
    }
  });
});

describe('start_debugger without test_name', () => {
  test('its description says it runs the whole file', () => {
    const spec = toolSpecs('full').find((t) => t.function.name === 'start_debugger')!;
    expect(spec.function.description).toMatch(/or a whole test file/);
    expect(JSON.stringify(spec.function.parameters)).toMatch(/without it the whole file runs and the debugger stops before the first test body/);
  });

  test('runs the whole file: stops before the first test body, and the end reports every test of the file', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const start = await expectCall(s, 'start_debugger', { test_file: 'test_articles.py' }, true);
      expect(start.output).toMatch(/^Stopped before the test body at test_articles.py:5 in test_explicit_tags_are_kept/);
      const end = await expectCall(s, 'continue_execution', {}, true);
      expect(end.output).toMatch(/test_articles.py::test_new_articles_start_untagged failed/);
      expect(end.output).toMatch(/test_articles.py::test_explicit_tags_are_kept passed/);
    }));

  test('a TestCase file without test_name stops in its first test method', () =>
    withSession(LEDGER_TASK, async (s) => {
      const start = await expectCall(s, 'start_debugger', { test_file: 'test_ledger.py' }, true);
      expect(start.output).toMatch(/^Stopped before the test body at test_ledger.py:\d+ in LedgerTest.test_/);
    }));
});
