/** The `continue_execution` tool. */
import { defineTool, noArgs } from './define';

export const continueExecution = defineTool({
  name: 'continue_execution',
  description: 'Run until a breakpoint, the end of the test, or a bounded wait (then shows every thread).',
  debugger: true,
  stateChanging: true,
  args: noArgs,
  run: (ctx) => ctx.debugger.command('continue', { wait: ctx.limits.debuggerWaitS }),
});
