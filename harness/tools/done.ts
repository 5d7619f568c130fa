/** The `done` tool. */
import { z } from 'zod';
import { ok } from '../outcome';
import { defineTool } from './define';

export const done = defineTool({
  name: 'done',
  description: 'End the episode. Call only after the tests pass.',
  debugger: false,
  stateChanging: true,
  args: z.object({ summary: z.string().max(4000).optional() }).strict(),
  run: async (ctx) => {
    await ctx.end();
    return ok('Episode finished. The grader will now run the tests on your source files.', { ended: true });
  },
});
