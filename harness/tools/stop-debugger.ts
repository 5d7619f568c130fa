/** The `stop_debugger` tool. */
import { defineTool, noArgs } from './define';

export const stopDebugger = defineTool({
  name: 'stop_debugger',
  description: 'Stop the debugger and the program; clears breakpoints.',
  debugger: true,
  stateChanging: true,
  args: noArgs,
  run: (ctx) => ctx.stopDebugger(),
});
