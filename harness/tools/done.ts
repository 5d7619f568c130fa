/** The `done` tool. */
import { z } from 'zod';
import { defineTool } from './define';

export const done = defineTool({
  name: 'done',
  description: 'End the episode. Call only after the tests pass.',
  debugger: false,
  stateChanging: true,
  args: z.object({ summary: z.string().max(4000).optional() }).strict(),
  run: (ctx) => ctx.finish(),
});
