/** Bug 0: links the agent plants in its workspace must never make the harness (root on the host) read, create or
 * change a host file. Every tool that takes a path is tried with links to host paths that exist and that dangle,
 * with linked folders as parents, and with hard links; no observation may show a host path. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { HarnessSession, ToolResult } from '../harness/session';
import { DEFAULT_TASK, expectCall, withSession } from './harness-helpers';

/** A host folder the sandbox cannot see (the sandbox's /tmp is its own), with one file in it. */
function hostDir(): { dir: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-escape-'));
  const file = path.join(dir, 'secret.py');
  fs.writeFileSync(file, 'HOST_SECRET = 1\n');
  return { dir, file };
}

/** Every observation of a session, checked for host paths at the end. */
function recorder(s: HarnessSession, host: string) {
  const seen: ToolResult[] = [];
  const call = async (name: string, args: Record<string, unknown>, ok: boolean) => {
    const r = await expectCall(s, name, args, ok);
    seen.push(r);
    return r;
  };
  const noHostPaths = () => {
    for (const r of seen) {
      expect(r.output).not.toContain(s.sandbox.dir);
      expect(r.output).not.toContain(host);
      expect(r.output).not.toContain('HOST_SECRET');
    }
  };
  return { call, noHostPaths };
}

describe('links to host paths', () => {
  test('a dangling link: edit_file does not create the host file (the reported escape)', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const { dir } = hostDir();
      const target = path.join(dir, 'new.txt');
      const { call, noHostPaths } = recorder(s, dir);
      await call('bash', { command: `ln -sf ${target} esc.py && ls -l esc.py | grep -c '\\->'` }, true);
      const r = await call('edit_file', { path: 'esc.py', old_text: '', new_text: 'written from the sandbox\n' }, false);
      expect(r.output).toMatch(/esc.py is a symbolic link/);
      expect(fs.existsSync(target)).toBe(false);
      // The same through /workspace/…, through a link in a subfolder, and as an edit of the link.
      await call('bash', { command: `mkdir -p sub && ln -sf ${target} sub/esc2.py` }, true);
      await call('edit_file', { path: '/workspace/sub/esc2.py', old_text: '', new_text: 'x' }, false);
      await call('edit_file', { path: 'esc.py', old_text: 'a', new_text: 'b' }, false);
      await call('read_file', { path: 'esc.py' }, false);
      expect(fs.readdirSync(dir)).toEqual(['secret.py']);
      noHostPaths();
    }));

  test('a link to an existing host file: read, edit, run_tests, start_debugger and breakpoints refuse it', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const { dir, file } = hostDir();
      const { call, noHostPaths } = recorder(s, dir);
      await call('bash', { command: `ln -s ${file} test_link.py && ln -s /usr/lib/python3.11/os.py os_link.py && ln -s ${file} plain.py` }, true);
      expect((await call('read_file', { path: 'plain.py' }, false)).output).toMatch(/outside the workspace/);
      expect((await call('edit_file', { path: 'plain.py', old_text: 'HOST_SECRET = 1', new_text: 'HOST_SECRET = 2' }, false)).output).toMatch(/outside the workspace/);
      expect(fs.readFileSync(file, 'utf8')).toBe('HOST_SECRET = 1\n');
      expect((await call('run_tests', { target: 'test_link.py' }, false)).output).toMatch(/outside the workspace/);
      expect((await call('start_debugger', { test_file: 'test_link.py' }, false)).output).toMatch(/outside the workspace/);
      // A link to a host file the sandbox can see (read-only) is still not a project file.
      expect((await call('read_file', { path: 'os_link.py' }, false)).output).toMatch(/outside the workspace/);
      await call('start_debugger', { test_file: 'test_articles.py' }, true);
      expect((await call('add_breakpoint', { file: 'os_link.py', line: 50 }, false)).output).toMatch(/outside the workspace/);
      expect((await call('add_breakpoint', { file: 'plain.py', line: 1 }, false)).output).toMatch(/no such file|outside the workspace/);
      noHostPaths();
    }));

  test('linked folders as parents: existing, dangling, relative escapes, and absolute links', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const { dir, file } = hostDir();
      const { call, noHostPaths } = recorder(s, dir);
      await call('bash', { command: `ln -s ${dir} hostdir && ln -s ${dir}/missing/deeper dangling && ln -s ../../../.. up && ln -s / root` }, true);
      await call('read_file', { path: `hostdir/${path.basename(file)}` }, false);
      await call('edit_file', { path: 'hostdir/new.py', old_text: '', new_text: 'x' }, false);
      // mkdir of missing parents under a dangling folder link must not create host folders.
      const r = await call('edit_file', { path: 'dangling/pkg/new.py', old_text: '', new_text: 'x' }, false);
      expect(r.output).toMatch(/outside the workspace/);
      await expectCall(s, 'edit_file', { path: `up${dir}/new.py`, old_text: '', new_text: 'x' }, false); // names the host path itself
      await call('read_file', { path: 'up/etc/hostname' }, false);
      await call('edit_file', { path: 'root/tmp/new.py', old_text: '', new_text: 'x' }, false);
      await call('run_tests', { target: 'hostdir' }, false);
      expect(fs.readdirSync(dir)).toEqual(['secret.py']);
      expect(fs.existsSync(path.join(dir, 'missing'))).toBe(false);
      noHostPaths();
    }));

  test('links that stay inside the workspace keep working, as the sandbox sees them', () =>
    withSession(DEFAULT_TASK, async (s) => {
      await expectCall(s, 'bash', { command: 'mkdir -p lib && ln -s ../articles.py lib/alias.py && ln -s /workspace/lib abs && ln -s lib rel' }, true);
      expect((await expectCall(s, 'read_file', { path: 'lib/alias.py', start_line: 1, end_line: 1 }, true)).output).toBe('1: class Article:\n[showing lines 1-1 of 13; use start_line/end_line for more]');
      await expectCall(s, 'read_file', { path: 'abs/alias.py' }, true);
      await expectCall(s, 'edit_file', { path: 'rel/made.py', old_text: '', new_text: 'Y = 2\n' }, true);
      const seen = await expectCall(s, 'bash', { command: 'cat lib/made.py; stat -c %U lib/made.py | grep -vc root' }, true);
      expect(seen.output).toMatch(/^Y = 2\n1\n/); // created inside the real folder, owned by the sandbox's uid
      const e = await expectCall(s, 'edit_file', { path: 'lib/alias.py', old_text: 'tags=[]):', new_text: 'tags=None):' }, true);
      expect(e.output).toMatch(/^Edited articles.py: lines 2-2/); // the link's target is named
    }));

  test('hard links to host files cannot be made from the sandbox (what it can link stays inside)', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const r = await expectCall(s, 'bash', {
        command: 'for t in /etc/hostname /usr/lib/python3.11/os.py /tmp/own; do touch /tmp/own; ln $t hl_$(basename $t) 2>&1 | sed "s/.*: //"; done; ls hl_* 2>/dev/null | wc -l; true',
      }, true);
      // Different mounts (the workspace is a bind mount of its own): EXDEV, or EPERM for files the uid does not own.
      expect(r.output).not.toMatch(/^hl_/m);
      expect(r.output).toMatch(/^0\n/m);
      // A hard link inside the workspace is just another name for a workspace file: editing through it is fine.
      await expectCall(s, 'bash', { command: 'ln articles.py twin.py' }, true);
      await expectCall(s, 'edit_file', { path: 'twin.py', old_text: 'tags=[]):', new_text: 'tags=None):' }, true);
      expect((await expectCall(s, 'bash', { command: 'grep -c "tags=None" articles.py' }, true)).output).toMatch(/^1\n/);
    }));
});

describe('races', () => {
  test('a link swapped in while the harness walks the path is refused by the kernel, never followed', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const { dir } = hostDir();
      // A process started by the debugged test swaps `flip` as fast as it can between a link to a workspace folder
      // and a link to the host folder (an atomic rename each time), while the harness creates files under it (a
      // subprocess: the debugger does not stop it).
      const flipper = [
        'import os',
        'os.makedirs("/workspace/real", exist_ok=True)',
        'i = 0',
        'while True:',
        '    i += 1',
        '    tmp = "/workspace/.flip%d" % (i % 2)',
        '    try:',
        '        os.unlink(tmp)',
        '    except OSError:',
        '        pass',
        `    os.symlink("real" if i % 2 else "${dir}", tmp)`,
        '    os.replace(tmp, "/workspace/flip")',
      ].join('\n');
      await expectCall(s, 'edit_file', { path: 'flipper.py', old_text: '', new_text: flipper + '\n' }, true);
      await expectCall(s, 'edit_file', {
        path: 'test_flip.py',
        old_text: '',
        new_text: 'import subprocess, sys, time\n\ndef test_flip():\n    p = subprocess.Popen([sys.executable, "/workspace/flipper.py"])\n    time.sleep(60)\n',
      }, true);
      await expectCall(s, 'start_debugger', { test_file: 'test_flip.py' }, true);
      const running = await expectCall(s, 'continue_execution', {}, true);
      expect(running.output).toMatch(/^Still running/);
      const outcomes = { ok: 0, refused: 0 };
      for (let i = 0; i < 300; i++) {
        const r = await s.call({ name: 'edit_file', arguments: { path: `flip/f${i}.py`, old_text: '', new_text: 'x' } });
        outcomes[r.ok ? 'ok' : 'refused']++;
      }
      expect(fs.readdirSync(dir)).toEqual(['secret.py']);
      // Both branches were raced: some creates landed in the workspace folder, some met the link to the host.
      expect(outcomes.ok).toBeGreaterThan(0);
      expect(outcomes.refused).toBeGreaterThan(0);
    }), 60_000);
});
