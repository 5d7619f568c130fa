/** The `add_breakpoint` tool: the bridge checks the line; an accepted breakpoint is kept across restarts. */
import { z } from 'zod';
import { defineTool, relPath, lineNo } from './define';

export const addBreakpoint = defineTool({
  name: 'add_breakpoint',
  description: 'Set a breakpoint at file:line (checked against the executable lines), optionally with a condition.',
  debugger: true,
  stateChanging: true,
  args: z
    .object({
      file: relPath,
      line: lineNo,
      condition: z.string().min(1).max(500).optional().describe('stop only when this Python expression is true'),
    })
    .strict(),
  run: (ctx, a) => ctx.debugger.addBreakpoint(a),
});
