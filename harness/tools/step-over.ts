/** The `step_over` tool. */
import { defineTool, noArgs } from './define';

export const stepOver = defineTool({
  name: 'step_over',
  description: 'Run the current line, stopping at the next line in this function.',
  debugger: true,
  stateChanging: true,
  args: noArgs,
  run: (ctx) => ctx.debugger.command('step_over', { wait: ctx.limits.debuggerWaitS }),
});
