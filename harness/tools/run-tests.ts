/** The `run_tests` tool: a pytest run's summary, and for failures the failing tests and pytest's short tracebacks. */
import { z } from 'zod';
import { bound } from '../observation';
import { fail, ok } from '../outcome';
import { refusal } from '../workspace';
import { shownPath } from '../workspace-fs';
import { defineTool } from './define';

export const runTests = defineTool({
  name: 'run_tests',
  description: 'Run pytest on the visible tests, or on one file or node id; returns failing tests with short tracebacks.',
  debugger: false,
  stateChanging: false,
  args: z
    .object({
      target: z
        .string()
        .min(1)
        .max(500)
        .regex(/^[^\s-][^\s]*$/, 'a test file or pytest node id like test_x.py::test_y (no spaces, no options)')
        .optional()
        .describe('a test file or node id; default all visible tests'),
    })
    .strict(),
  run: async (ctx, { target }) => {
    if (target) {
      const file = target.split('::')[0]!;
      let st;
      try {
        st = ctx.workspace.files.stat(file);
      } catch (e) {
        return refusal(e, 'test');
      }
      if (!st || (st.kind !== 'file' && st.kind !== 'dir')) return fail(`no such test file in the workspace: ${shownPath(file)}. ${ctx.workspace.listing()}`);
    }
    // The task's own limit plus pytest's start-up.
    const timeoutSec = ctx.testSeconds + 20;
    const run = await ctx.workspace.pytest(target, timeoutSec * 1000);
    const ids = Object.keys(run.tests);
    const count = (o: string) => ids.filter((i) => run.tests[i] === o).length;
    const summary = ['passed', 'failed', 'error', 'skipped', 'timeout'].filter((o) => count(o)).map((o) => `${count(o)} ${o}`).join(', ');
    const bad = ids.filter((i) => ['failed', 'error', 'timeout'].includes(run.tests[i]!));
    const lines = [`Result: ${summary || 'no tests ran'}${run.exec.killed === 'timeout' ? ` (killed after ${timeoutSec} s)` : ''}`];
    for (const id of bad) lines.push(`${run.tests[id]!.toUpperCase()} ${id}${run.messages[id] ? `: ${run.messages[id]!.split('\n')[0]}` : ''}`);
    for (const e of run.collectErrors) lines.push(`COLLECTION ERROR ${e.slice(0, 500)}`);
    const tail = run.exec.stdout.trim();
    if (bad.length || run.collectErrors.length || !ids.length) lines.push('', 'pytest output (short tracebacks):', bound(tail, 5000, 'pytest output').text);
    const passed = ids.length > 0 && bad.length === 0 && !run.collectErrors.length;
    return passed ? ok(lines.join('\n'), { tests: run.tests }) : fail(lines.join('\n'), { tests: run.tests });
  },
});
