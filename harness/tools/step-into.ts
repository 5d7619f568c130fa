/** The `step_into` tool. */
import { defineTool, noArgs } from './define';

export const stepInto = defineTool({
  name: 'step_into',
  description: 'Step into the call on the current line (project code only).',
  debugger: true,
  stateChanging: true,
  args: noArgs,
  run: (ctx) => ctx.debugger.command('step_into', { wait: ctx.limits.debuggerWaitS }),
});
