/** The pre-warmed debugger bridge: start_debugger on a bridge that loaded pytest before the test was chosen must
 * look exactly like a cold start, see edits made after warming, fall back to a cold start when a workspace file
 * shadows a module it loaded, and die with the session. */
import { spawnSync } from 'node:child_process';
import { HarnessSession, type ToolResult } from '../harness/session';
import { DEFAULT_TASK, FAST, HARNESS_ENV as env, expectCall } from './harness-helpers';

const START = { test_file: 'test_articles.py', test_name: 'test_new_articles_start_untagged' };

async function bothWays<T>(fn: (s: HarnessSession) => Promise<T>): Promise<{ warm: T; cold: T }> {
  const warmS = await HarnessSession.create({ env, taskDir: DEFAULT_TASK, limits: FAST });
  const coldS = await HarnessSession.create({ env, taskDir: DEFAULT_TASK, limits: FAST, prewarmDebugger: false });
  try {
    expect(await warmS.debuggerPrewarmed()).toBe(true);
    expect(await coldS.debuggerPrewarmed()).toBe(false);
    return { warm: await fn(warmS), cold: await fn(coldS) };
  } finally {
    await warmS.close();
    await coldS.close();
  }
}

/** Processes of this sandbox: everything inside runs as its own uid (bwrap's host command line no longer names
 * the sandbox's folder: its options travel through a pipe). */
function processesOf(s: HarnessSession): string[] {
  const ps = spawnSync('ps', ['-eo', 'ruid=,args='], { encoding: 'utf8' }).stdout;
  expect(s.sandbox.uid).not.toBeNull();
  return ps.split('\n').filter((l) => l.trim().split(/\s+/)[0] === String(s.sandbox.uid));
}

describe('pre-warmed debugger bridge', () => {
  test('serves start_debugger with the same observations as a cold bridge', async () => {
    const run = async (s: HarnessSession) => {
      const start = await expectCall(s, 'start_debugger', START, true);
      const end = await expectCall(s, 'continue_execution', {}, true);
      return { start, end };
    };
    const { warm, cold } = await bothWays(run);
    expect(warm.start.meta.bridge).toBe('prewarmed');
    expect(cold.start.meta.bridge).toBe('cold');
    expect(warm.start.output).toMatch(/^Stopped before the test body at test_articles.py:10 in test_new_articles_start_untagged/);
    expect(warm.start.output).toBe(cold.start.output);
    // The whole run's observation, pytest's own output included: no extra warning from loading plugins early.
    expect(warm.end.output).toMatch(/test_new_articles_start_untagged failed/);
    const untimed = (t: string) => t.replace(/ in \d+\.\d+s/g, ' in Ns'); // pytest's own duration line
    expect(untimed(warm.end.output)).toBe(untimed(cold.end.output));
  });

  test('an edit made after warming is what the next start runs, and each start gets a fresh bridge', async () => {
    const s = await HarnessSession.create({ env, taskDir: DEFAULT_TASK, limits: FAST });
    try {
      expect(await s.debuggerPrewarmed()).toBe(true);
      await expectCall(s, 'edit_file', { path: 'articles.py', old_text: 'tags=[]):\n        self.title = title\n        self.tags = tags', new_text: 'tags=None):\n        self.title = title\n        self.tags = [] if tags is None else tags' }, true);
      const first = await expectCall(s, 'start_debugger', START, true);
      expect(first.meta.bridge).toBe('prewarmed');
      const end = await expectCall(s, 'continue_execution', {}, true);
      expect(end.output).toMatch(/test_new_articles_start_untagged passed/);
      // State from the first run (a module global set by the model) must not leak into the second.
      expect(await s.debuggerPrewarmed()).toBe(true);
      await expectCall(s, 'start_debugger', START, true);
      await expectCall(s, 'run_expression', { expression: 'import articles; articles.LEAK = 1' }, true);
      expect(await s.debuggerPrewarmed()).toBe(true);
      const again = await expectCall(s, 'start_debugger', START, true);
      expect(again.meta.bridge).toBe('prewarmed');
      const leak = await expectCall(s, 'print_variable', { expression: "hasattr(__import__('articles'), 'LEAK')" }, true);
      expect(leak.output).toMatch(/= False$/);
    } finally {
      await s.close();
    }
  });

  test('a workspace module shadowing one the bridge loaded early makes start_debugger fall back to a cold bridge', async () => {
    // iniconfig is loaded while warming; a cold bridge would now import this file instead (the cwd comes first).
    const shadow = { path: 'iniconfig.py', old_text: '', new_text: 'raise ImportError("workspace iniconfig")\n' };
    const run = async (s: HarnessSession): Promise<ToolResult> => {
      await expectCall(s, 'edit_file', shadow, true);
      return s.call({ name: 'start_debugger', arguments: START });
    };
    const { warm, cold } = await bothWays(run);
    expect(warm.output).toMatch(/workspace iniconfig/); // the cold behaviour: pytest cannot load
    expect(warm.output).toBe(cold.output);
    expect(warm.ok).toBe(cold.ok);
  });

  test('the pre-warmed bridge is killed when the session closes', async () => {
    const s = await HarnessSession.create({ env, taskDir: DEFAULT_TASK, limits: FAST });
    expect(await s.debuggerPrewarmed()).toBe(true);
    expect(processesOf(s).length).toBeGreaterThan(0);
    await s.close();
    expect(processesOf(s)).toEqual([]);
  });

  test('closing a session right after creating it leaves no bridge behind (bwrap killed mid-start orphans its child)', async () => {
    const left: string[] = [];
    // Close 0-7 ms after creation, twice each: the window in which a kill orphans the child is a few ms wide.
    for (let i = 0; i < 16; i++) {
      const s = await HarnessSession.create({ env, taskDir: DEFAULT_TASK, limits: FAST });
      await new Promise((r) => setTimeout(r, i % 8));
      await s.close();
      left.push(...processesOf(s));
    }
    expect(left).toEqual([]);
  });
});
