/** The `print_variable` tool. */
import { z } from 'zod';
import { defineTool } from './define';

export const printVariable = defineTool({
  name: 'print_variable',
  description: 'Evaluate an expression in the current frame and show its value (bounded).',
  debugger: true,
  stateChanging: false,
  args: z.object({ expression: z.string().min(1).max(2000).describe('a name or expression, e.g. entry.calibration') }).strict(),
  run: (ctx, a) => ctx.debugger.command('print', { expression: a.expression }),
});
