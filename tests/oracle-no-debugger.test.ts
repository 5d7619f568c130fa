/** The oracle teacher without debugger tools (toolset `no-debugger`, the learnable tier's traces): its short plan
 * through the real harness on every starter task, graded by the real grader, and the policy picking that plan when
 * the episode's tools have no debugger. */
import * as path from 'node:path';
import { loadConfig, REPO_ROOT } from '../common/config';
import { harnessEnv } from '../harness/env';
import { toolSpecs } from '../harness/tools';
import { HarnessSession } from '../harness/session';
import { buildNoDebuggerPlan, nextCall, oraclePolicy, taskFacts, variationFor, type Turn } from '../activities/policies/oracle';
import type { ToolSpec } from '../activities/policies/chat-client';
import { listTaskDirs, loadTask } from '../taskset/task-loader';

const config = loadConfig({ ...process.env, DEBUGRL_TASKS_DIR: path.join(REPO_ROOT, 'tasks') });
const starterDirs = listTaskDirs(config.DEBUGRL_TASKS_DIR).filter((d) => loadTask(d).spec.split === 'starter');

describe('the oracle without debugger tools', () => {
  it('has starter tasks to drive', () => {
    expect(starterDirs.length).toBeGreaterThanOrEqual(8);
  });

  it.each(starterDirs.map((d) => [path.basename(d), d]))('fixes %s in a short trace that never calls the debugger', async (_id, dir) => {
    const task = loadTask(dir);
    for (const seed of [0, 1]) {
      const plan = buildNoDebuggerPlan(await taskFacts(task, config), variationFor(task.spec.id, seed));
      const session = await HarnessSession.create({ env: harnessEnv(config), taskDir: dir });
      const turns: Turn[] = [];
      try {
        while (turns.length < 10) {
          const c = nextCall(plan, turns);
          const r = await session.call({ name: c.name, arguments: c.arguments });
          turns.push({ name: c.name, arguments: c.arguments, output: r.output });
          if (c.name === 'done') break;
        }
        const names = turns.map((t) => t.name);
        expect(names.at(-1)).toBe('done');
        expect(names.length).toBeLessThanOrEqual(5);
        expect(names.filter((n) => /debugger|breakpoint|locals|print_variable|step_/.test(n))).toEqual([]);
        // every edit comes after a read of the file it edits
        const edit = names.indexOf('edit_file');
        expect(names.slice(0, edit)).toContain('read_file');
        expect((await session.grade()).passed).toBe(true);
      } finally {
        await session.close();
      }
    }
  }, 120_000);

  it('picks the short plan when the tools have no debugger, and the full plan when they do', async () => {
    const id = path.basename(starterDirs[0]!);
    const policy = oraclePolicy(config);
    const first = async (toolset: 'full' | 'no-debugger') =>
      (await policy.next({ taskId: id, messages: [], tools: toolSpecs(toolset) as ToolSpec[], turn: 1, seed: 1000 + 1, maxTokens: 100 })).toolCall!.name;
    // variationFor(id, 1) decides whether the short plan reproduces first; either way its first call is no inventory
    expect(['read_file', 'run_tests']).toContain(await first('no-debugger'));
    expect(await first('full')).toBe('bash');
  });
});
