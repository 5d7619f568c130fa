/** The `list_breakpoints` tool. */
import { defineTool, noArgs } from './define';

export const listBreakpoints = defineTool({
  name: 'list_breakpoints',
  description: 'List breakpoints and whether each has been hit.',
  debugger: true,
  stateChanging: false,
  args: noArgs,
  run: (ctx) => ctx.debugger.command('list_breakpoints', {}),
});
