/** The `remove_breakpoint` tool. */
import { z } from 'zod';
import { defineTool, relPath, lineNo } from './define';

export const removeBreakpoint = defineTool({
  name: 'remove_breakpoint',
  description: 'Remove the breakpoint at file:line.',
  debugger: true,
  stateChanging: true,
  args: z.object({ file: relPath, line: lineNo }).strict(),
  run: (ctx, a) => ctx.debugger.removeBreakpoint(a),
});
