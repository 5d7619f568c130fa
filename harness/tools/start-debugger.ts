/** The `start_debugger` tool: run a test under a fresh bridge (restarting a running one) and stop before its body. */
import { z } from 'zod';
import { fail } from '../outcome';
import { refusal } from '../workspace';
import { shownPath } from '../workspace-fs';
import { defineTool, relPath } from './define';

export const startDebugger = defineTool({
  name: 'start_debugger',
  description: 'Run a test (test_name), or a whole test file, under the debugger and stop before the (first) test body; unittest.TestCase methods too. Restarts a running session; breakpoints are kept.',
  debugger: true,
  stateChanging: true,
  args: z
    .object({
      test_file: relPath.describe('test file relative to the workspace, e.g. test_cache.py'),
      test_name: z
        .string()
        .min(1)
        .max(300)
        .regex(/^[^\s-][^\s]*$/, 'a test name like test_eviction or TestCache::test_eviction')
        .optional()
        .describe('test function (or Class::method); without it the whole file runs and the debugger stops before the first test body'),
    })
    .strict(),
  run: async (ctx, a) => {
    let st;
    try {
      st = ctx.workspace.files.stat(a.test_file);
    } catch (e) {
      return refusal(e, 'test');
    }
    if (st?.kind !== 'file') return fail(`no such test file: ${shownPath(a.test_file)}. ${ctx.workspace.listing()}`);
    const restarted = ctx.debugger.running;
    const r = await ctx.debugger.start(a.test_name ? `${st.rel}::${a.test_name}` : st.rel);
    if (!r.ok) return r;
    return { ...r, output: (restarted ? 'Previous debugger session stopped; breakpoints kept.\n' : '') + r.output };
  },
});
