/** The `run_tests` tool. */
import { z } from 'zod';
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
  run: (ctx, a) => ctx.runTests(a.target),
});
