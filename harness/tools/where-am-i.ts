/** The `where_am_i` tool. */
import { defineTool, noArgs } from './define';

export const whereAmI = defineTool({
  name: 'where_am_i',
  description: 'Current file:line, function, nearby source and the stack of project frames (all threads while running).',
  debugger: true,
  stateChanging: false,
  args: noArgs,
  run: (ctx) => ctx.debugger.command('where', {}),
});
