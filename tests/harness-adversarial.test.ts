/** Hostile or careless agents: none of these may hang the harness, escape the sandbox or change a grade. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixOverlay, gradeFiles, GraderInputError } from '../harness/grader';
import { loadTask } from '../taskset/task-loader';
import { DEFAULT_TASK, expectCall, HARNESS_ENV as env, withSession } from './harness-helpers';

describe('sandbox escapes', () => {
  test('no network', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const r = await expectCall(s, 'bash', {
        command: 'python -c "import socket; socket.create_connection((\'1.1.1.1\', 80), timeout=2)" 2>&1 | tail -1; cat /proc/net/dev | tail -n +3 | cut -d: -f1',
      }, true);
      expect(r.output).toMatch(/OSError: \[Errno 101\] Network is unreachable/);
      expect(r.output).toMatch(/^\s*lo\s*\n\[exit status 0\]$/m);
    }));

  test('writes outside the workspace fail; /tmp is private to the episode', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const r = await expectCall(s, 'bash', {
        command: 'for p in /etc/x /usr/x /x /work/x /root/x; do touch $p 2>/dev/null && echo "WROTE $p"; done; echo tmp > /tmp/mine; cat /tmp/mine; id -u',
      }, true);
      expect(r.output).not.toMatch(/WROTE/);
      expect(r.output).toMatch(/^tmp\n[1-9]\d*\n/);
      expect(fs.existsSync('/tmp/mine')).toBe(false);
      expect((await expectCall(s, 'edit_file', { path: '/etc/hosts', old_text: 'localhost', new_text: 'evil' }, false)).output).toMatch(/outside the workspace/);
    }));

  test('the held-back fix, the task folder and the repository are not visible', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const task = loadTask(DEFAULT_TASK);
      const fixFile = path.join(task.fixDir, 'articles.py');
      const r = await expectCall(s, 'bash', {
        command: `cat ${fixFile} 2>&1; ls ${path.dirname(task.dir)} | wc -l; ls ${path.resolve(__dirname, '..')}; ls -a ${path.resolve(__dirname, '..')} | grep -c git; true`,
      }, true);
      expect(r.output).toMatch(/No such file or directory/);
      expect(r.output).not.toMatch(/tags=None/);
      // A symlink to the fix dangles inside and is refused by read_file and by the grader on the host side.
      await expectCall(s, 'bash', { command: `ln -sf ${fixFile} articles.py` }, true);
      expect((await expectCall(s, 'read_file', { path: 'articles.py' }, false)).output).toMatch(/outside the workspace/);
      await expectCall(s, 'done', {}, true);
      const g = await s.grade();
      expect(g.passed).toBe(false);
    }));
});

describe('resource abuse is bounded', () => {
  test('a fork bomb is stopped by the process limit and the harness answers', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const t0 = Date.now();
      const r = await s.call({ name: 'bash', arguments: { command: 'bomb() { bomb | bomb & }; bomb; sleep 1; echo survived' } });
      expect(Date.now() - t0).toBeLessThan(15_000);
      expect(r.output).toMatch(/Resource temporarily unavailable|retry: |killed/);
      const after = await expectCall(s, 'bash', { command: 'echo alive' }, true);
      expect(after.output).toMatch(/^alive/);
    }), 60_000);

  test('a memory hog gets MemoryError, not the machine', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const r = await expectCall(s, 'bash', { command: 'python -c "x = bytearray(8 * 1024**3)"' }, false);
      expect(r.output).toMatch(/MemoryError/);
    }));

  test('endless output is cut and the command killed; a silent command is killed by the idle timeout', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const loud = await expectCall(s, 'bash', { command: 'yes' }, false);
      expect(loud.output).toMatch(/\[killed: endless output; the whole process group was stopped\]$/);
      expect(loud.output.length).toBeLessThanOrEqual(8000);
      expect(loud.output).toMatch(/more bytes of output were not kept/);
      const t0 = Date.now();
      const quiet = await expectCall(s, 'bash', { command: 'sleep 1000 & sleep 1000' }, false);
      expect(quiet.output).toMatch(/\[killed: no output for 3 s; the whole process group was stopped\]/);
      expect(Date.now() - t0).toBeLessThan(8000);
      const chatty = await expectCall(s, 'bash', { command: 'while true; do echo tick; sleep 1; done' }, false);
      expect(chatty.output).toMatch(/\[killed: still running after 8 s/);
      const ps = await expectCall(s, 'bash', { command: 'ps -e -o comm= | grep -c sleep || true' }, true);
      expect(ps.output).toMatch(/^0\n/);
    }), 60_000);
});

describe('grades cannot be changed by the agent', () => {
  test('editing the tests and adding a conftest.py that passes everything, then done: still failing', () =>
    withSession(DEFAULT_TASK, async (s) => {
      await expectCall(s, 'edit_file', { path: 'test_articles.py', old_text: '    assert second.tags == []\n    assert total == 1\n', new_text: '    pass\n' }, true);
      const conftest = [
        'import pytest',
        '@pytest.hookimpl(hookwrapper=True)',
        'def pytest_runtest_makereport(item, call):',
        '    outcome = yield',
        '    rep = outcome.get_result()',
        '    rep.outcome = "passed"',
        '',
      ].join('\n');
      await expectCall(s, 'edit_file', { path: 'conftest.py', old_text: '', new_text: conftest }, true);
      await expectCall(s, 'bash', { command: 'echo "import os" > sitecustomize.py; printf "[pytest]\\naddopts = -k explicit\\n" > pytest.ini' }, true);
      const seen = await expectCall(s, 'run_tests', {}, true);
      expect(seen.output).toMatch(/^Result: 1 passed/); // the agent fooled its own view…
      await expectCall(s, 'done', {}, true);
      const g = await s.grade(); // …not the grader's
      expect(g.passed).toBe(false);
      expect(g.tests).toEqual({ 'test_articles.py::test_explicit_tags_are_kept': 'passed', 'test_articles.py::test_new_articles_start_untagged': 'failed' });
    }));

  test('gradeFiles: the fix passes, the buggy source fails, files outside source_files are refused', async () => {
    const task = loadTask(DEFAULT_TASK);
    const fixed = await gradeFiles({ task, env, files: fixOverlay(task) });
    expect(fixed).toMatchObject({ passed: true, tests: { 'test_articles.py::test_new_articles_start_untagged': 'passed' }, notes: [] });
    const deleted = await gradeFiles({ task, env, files: { 'articles.py': null } });
    expect(deleted.passed).toBe(false);
    expect(deleted.notes.join(' ')).toMatch(/collection error/);
    await expect(gradeFiles({ task, env, files: { 'conftest.py': '' } })).rejects.toThrow(GraderInputError);
  });

  test('a hanging source file becomes timeouts, not a hung grader', async () => {
    const task = loadTask(DEFAULT_TASK);
    const hang = fs.readFileSync(path.join(task.workspaceDir, 'articles.py'), 'utf8').replace('        self.title = title', '        while True: pass');
    const g = await gradeFiles({ task, env, files: { 'articles.py': hang }, timeoutSec: 4 });
    expect(g.passed).toBe(false);
    expect(g.tests['test_articles.py::test_explicit_tags_are_kept']).toBe('timeout');
    expect(g.notes[0]).toMatch(/killed after 4 s/);
  });
});
