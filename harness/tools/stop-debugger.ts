/** The `stop_debugger` tool. */
import { fail, ok } from '../outcome';
import { defineTool, noArgs } from './define';

export const stopDebugger = defineTool({
  name: 'stop_debugger',
  description: 'Stop the debugger and the program; clears breakpoints.',
  debugger: true,
  stateChanging: true,
  args: noArgs,
  run: async (ctx) => {
    if (!ctx.debugger.running) return fail('no debugger session is running');
    const out = await ctx.debugger.stop();
    return ok(`Debugger stopped; the program was killed and breakpoints cleared.${out ? `\n${out}` : ''}`);
  },
});
