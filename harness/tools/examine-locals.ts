/** The `examine_locals` tool. */
import { defineTool, noArgs } from './define';

export const examineLocals = defineTool({
  name: 'examine_locals',
  description: 'Local variables of the current frame (bounded; modules, functions and dunders hidden).',
  debugger: true,
  stateChanging: false,
  args: noArgs,
  run: (ctx) => ctx.debugger.command('locals', {}),
});
