/** The `start_debugger` tool. */
import { z } from 'zod';
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
  run: (ctx, a) => ctx.startDebugger(a.test_file, a.test_name),
});
