/** The debugger tools against real pdb (bdb) runs of the fixture tasks, inside the sandbox. */
import { ALIAS_TASK, DEFAULT_TASK, LOCK_TASK, expectCall, withSession } from './harness-helpers';

describe('debugger', () => {
  test('deadlocked re-entrant lock: breakpoint hit in a worker thread shows the Thread-vs-int owner mismatch', () =>
    withSession(LOCK_TASK, async (s) => {
      const start = await expectCall(s, 'start_debugger', { test_file: 'test_locks.py', test_name: 'test_read_then_write_finishes' }, true);
      expect(start.output).toMatch(/^Stopped before the test body at test_locks.py:13 in test_read_then_write_finishes/);
      await expectCall(s, 'add_breakpoint', { file: 'locks.py', line: 15, condition: 'self._owner is not None' }, true);
      const hit = await expectCall(s, 'continue_execution', {}, true);
      expect(hit.output).toMatch(/Stopped at breakpoint locks.py:15 .*\[thread Thread-\d+ \(worker\)\]/);
      expect(hit.output).toMatch(/locks.py:39 in ResourceGuard.read\n {2}locks.py:58 in ResourceGuard.read_then_write/);
      const owner = await expectCall(s, 'print_variable', { expression: 'type(self._owner).__name__' }, true);
      expect(owner.output).toBe("type(self._owner).__name__ = 'Thread'");
      const me = await expectCall(s, 'run_expression', { expression: 'self._owner == me' }, true);
      expect(me.output).toBe('self._owner == me = False');
      const locals = await expectCall(s, 'examine_locals', {}, true);
      expect(locals.output).toMatch(/^self = ReentrantLock\(_owner=<Thread\(Thread-\d+ \(worker\), started daemon \d+\)>, _count=1, /);
      expect(locals.output).toMatch(/\nme = \d+/);
    }));

  test('shared mutable default: step into, over and out, locals hide modules and dunders', () =>
    withSession(DEFAULT_TASK, async (s) => {
      await expectCall(s, 'start_debugger', { test_file: 'test_articles.py', test_name: 'test_new_articles_start_untagged' }, true);
      const into = await expectCall(s, 'step_into', {}, true);
      expect(into.output).toMatch(/Stopped at articles.py:13 in publish/);
      await expectCall(s, 'step_into', {}, true); // the list comprehension frame
      const init = await expectCall(s, 'step_into', {}, true);
      expect(init.output).toMatch(/Stopped at articles.py:3 in Article.__init__/);
      const loc = await expectCall(s, 'examine_locals', {}, true);
      expect(loc.output).toMatch(/^self = Article\(\)\ntitle = 'one'\ntags = \[\]/);
      const out = await expectCall(s, 'step_out', {}, true);
      expect(out.output).toMatch(/Returning from __init__\(\) with value: None/);
      // Back in the test: let both articles be built and tag the first, then look at the second.
      await expectCall(s, 'add_breakpoint', { file: 'test_articles.py', line: 12 }, true);
      await expectCall(s, 'continue_execution', {}, true);
      await expectCall(s, 'step_over', {}, true);
      const same = await expectCall(s, 'print_variable', { expression: 'second.tags is first.tags' }, true);
      expect(same.output).toBe('second.tags is first.tags = True');
      const tags = await expectCall(s, 'print_variable', { expression: 'second.tags' }, true);
      expect(tags.output).toBe("second.tags = ['draft']");
      const mod = await expectCall(s, 'run_expression', { expression: 'import os' }, true);
      expect(mod.output).toBe('Executed.');
      const loc2 = await expectCall(s, 'examine_locals', {}, true);
      expect(loc2.output).not.toMatch(/__builtins__|__name__|^os =/m);
      expect(loc2.output).toMatch(/\(hidden: 1 module; print_variable shows any of them by name\)/);
      const where = await expectCall(s, 'where_am_i', {}, true);
      expect(where.output).toMatch(/test_articles.py:13 in test_new_articles_start_untagged\n/);
      expect(where.output).toMatch(/-> {3}13 {5}for article in \(first, second\):/);
    }));

  test('aliasing copy: program output is captured separately, bounded reprs say how much is left out', () =>
    withSession(ALIAS_TASK, async (s) => {
      await expectCall(s, 'start_debugger', { test_file: 'test_settings.py', test_name: 'test_clone_is_independent' }, true);
      await expectCall(s, 'add_breakpoint', { file: 'test_settings.py', line: 14 }, true);
      await expectCall(s, 'continue_execution', {}, true);
      const alias = await expectCall(s, 'print_variable', { expression: "staging.values['server'] is base.values['server']" }, true);
      expect(alias.output).toMatch(/= True$/);
      const printed = await expectCall(s, 'run_expression', { expression: "print('from the program'); big = list(range(100))" }, true);
      // The print went to the program's stdout, captured apart from the debugger's reply and labelled.
      expect(printed.output).toBe('Executed.\n[program stdout]\nfrom the program');
      const big = await expectCall(s, 'examine_locals', {}, true);
      expect(big.output).toMatch(/big = \[0, 1, 2, 3, 4, 5, 6, 7, … 92 more items\]/);
      const long = await expectCall(s, 'print_variable', { expression: "'x' * 5000" }, true);
      expect(long.output).toMatch(/… 4002 more chars$/);
      const end = await expectCall(s, 'continue_execution', {}, true);
      expect(end.output).toMatch(/The program finished. test_settings.py::test_clone_is_independent failed: assert 9001 == 8080/);
    }));

  test('error paths are observations: bad lines, missing or outside files, names, syntax, nothing running', () =>
    withSession(DEFAULT_TASK, async (s) => {
      expect((await expectCall(s, 'step_over', {}, false)).output).toMatch(/no debugger session: call start_debugger/);
      expect((await expectCall(s, 'start_debugger', { test_file: 'test_nope.py' }, false)).output).toMatch(/no such test file/);
      const wrong = await expectCall(s, 'start_debugger', { test_file: 'test_articles.py', test_name: 'test_missing' }, false);
      expect(wrong.output).toMatch(/did not reach a test body[\s\S]*not found/);
      await expectCall(s, 'start_debugger', { test_file: 'test_articles.py' }, true);
      const blank = await expectCall(s, 'add_breakpoint', { file: 'articles.py', line: 10 }, false);
      expect(blank.output).toBe('articles.py:10 is a blank line; nothing executes there. Nearest executable lines: 9: return self, 8: self.tags.append(label)');
      expect(blank.meta.debuggerError).toBe(true);
      expect((await expectCall(s, 'add_breakpoint', { file: 'articles.py', line: 400 }, false)).output).toMatch(/has 13 lines; line 400 does not exist/);
      expect((await expectCall(s, 'add_breakpoint', { file: 'missing.py', line: 1 }, false)).output).toMatch(/^no such file: missing.py. Python files in the workspace: articles.py, test_articles.py/);
      expect((await expectCall(s, 'add_breakpoint', { file: '/usr/lib/python3.11/os.py', line: 50 }, false)).output).toMatch(/outside the workspace/);
      expect((await expectCall(s, 'add_breakpoint', { file: 'articles.py', line: 3, condition: 'tags ==' }, false)).output).toMatch(/not a valid Python expression/);
      expect((await expectCall(s, 'remove_breakpoint', { file: 'articles.py', line: 3 }, false)).output).toMatch(/no breakpoint at articles.py:3. Breakpoints: none/);
      expect((await expectCall(s, 'print_variable', { expression: 'nope' }, false)).output).toMatch(/^NameError: name 'nope' is not defined/);
      expect((await expectCall(s, 'print_variable', { expression: 'a = 1' }, false)).output).toMatch(/^SyntaxError in 'a = 1'/);
      expect((await expectCall(s, 'run_expression', { expression: 'def (' }, false)).output).toMatch(/^SyntaxError/);
      // A breakpoint that is never reached is named when the program ends; then stepping has nothing to step.
      await expectCall(s, 'add_breakpoint', { file: 'articles.py', line: 8, condition: 'label == "never"' }, true);
      const end = await expectCall(s, 'continue_execution', {}, true);
      expect(end.output).toMatch(/Breakpoints never hit: articles.py:8/);
      expect(end.meta.breakpointsNeverHit).toEqual(['articles.py:8']);
      expect((await expectCall(s, 'step_over', {}, false)).output).toMatch(/no program is running: it has finished/);
      expect((await expectCall(s, 'examine_locals', {}, false)).output).toMatch(/the program has finished/);
      // An expression that never returns costs a bounded wait and the session, not the harness.
      await expectCall(s, 'start_debugger', { test_file: 'test_articles.py' }, true);
      const hang = await s.call({ name: 'run_expression', arguments: { expression: '__import__("time").sleep(60)' } });
      expect(hang.ok).toBe(false);
      expect(hang.output).toMatch(/eval did not finish within \d+ s/);
      expect((await expectCall(s, 'where_am_i', {}, false)).output).toMatch(/no debugger session/);
    }, { debuggerWaitS: 2, inspectTimeoutMs: 3000 }));

  test('a hang returns "still running" with every thread, and the session stays usable', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const hangTest = [
        'import threading',
        '',
        'def test_waits_forever():',
        '    gate = threading.Event()',
        '    worker = threading.Thread(target=gate.wait, name="waiter", daemon=True)',
        '    worker.start()',
        '    worker.join()',
        '',
      ].join('\n');
      await expectCall(s, 'edit_file', { path: 'test_hang.py', old_text: '', new_text: hangTest }, true);
      await expectCall(s, 'start_debugger', { test_file: 'test_hang.py' }, true);
      const t0 = Date.now();
      const r = await expectCall(s, 'continue_execution', {}, true);
      expect(Date.now() - t0).toBeLessThan(6000);
      expect(r.output).toMatch(/^Still running after 2 s/);
      expect(r.output).toMatch(/Thread MainThread:\n {2}test_hang.py:7 in test_waits_forever: worker.join\(\)/);
      expect(r.meta.state).toBe('running');
      const w = await expectCall(s, 'where_am_i', {}, true);
      expect(w.output).toMatch(/The program is running \(not stopped\)/);
      const p = await expectCall(s, 'print_variable', { expression: 'worker.name' }, true);
      expect(p.output).toMatch(/showing test_hang.py:7 in test_waits_forever in thread MainThread\)\nworker.name = 'waiter'/);
      expect((await expectCall(s, 'step_over', {}, false)).output).toMatch(/the program is running, not stopped at a line/);
      await expectCall(s, 'run_expression', { expression: 'gate.set()' }, true);
      const end = await expectCall(s, 'continue_execution', {}, true);
      expect(end.output).toMatch(/The program finished. test_hang.py::test_waits_forever passed/);
      await expectCall(s, 'stop_debugger', {}, true);
    }, { debuggerWaitS: 2 }));

  test('editing while debugging shifts breakpoints below the edit and restarts on the new code', () =>
    withSession(DEFAULT_TASK, async (s) => {
      await expectCall(s, 'start_debugger', { test_file: 'test_articles.py', test_name: 'test_new_articles_start_untagged' }, true);
      await expectCall(s, 'add_breakpoint', { file: 'articles.py', line: 3 }, true);
      await expectCall(s, 'add_breakpoint', { file: 'articles.py', line: 13 }, true);
      const e = await expectCall(s, 'edit_file', { path: 'articles.py', old_text: '        self.tags = tags\n', new_text: '        if tags is None:\n            tags = []\n        self.tags = tags\n' }, true);
      expect(e.output).toMatch(/The debugger was restarted on the edited code \(breakpoints below line 4 of articles.py shifted by \+2 line\(s\); breakpoints restored\)/);
      expect(e.output).toMatch(/Breakpoints restored: articles.py:3, articles.py:13 -> 15/);
      expect(e.meta.breakpointsShifted).toEqual(['articles.py:13 -> 15']);
      const list = await expectCall(s, 'list_breakpoints', {}, true);
      expect(list.output).toBe('Breakpoints: articles.py:3 (not hit yet), articles.py:15 (not hit yet)');
      const hit = await expectCall(s, 'continue_execution', {}, true);
      expect(hit.output).toMatch(/Stopped at breakpoint articles.py:15/);
    }));
});
