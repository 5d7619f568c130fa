/** The `run_expression` tool. */
import { z } from 'zod';
import { defineTool } from './define';

export const runExpression = defineTool({
  name: 'run_expression',
  description: 'Evaluate an expression or run a statement in the current frame.',
  debugger: true,
  stateChanging: true,
  args: z.object({ expression: z.string().min(1).max(2000).describe('a Python expression or statement run in the current frame') }).strict(),
  run: (ctx, a) => ctx.debugger.command('eval', { expression: a.expression }),
});
