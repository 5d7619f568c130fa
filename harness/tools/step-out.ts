/** The `step_out` tool. */
import { defineTool, noArgs } from './define';

export const stepOut = defineTool({
  name: 'step_out',
  description: 'Run until the current function returns.',
  debugger: true,
  stateChanging: true,
  args: noArgs,
  run: (ctx) => ctx.debugger.command('step_out', { wait: ctx.limits.debuggerWaitS }),
});
