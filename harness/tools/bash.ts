/** The `bash` tool. */
import { z } from 'zod';
import { defineTool } from './define';

export const bash = defineTool({
  name: 'bash',
  description: 'Run a shell command in the workspace (no network; output and time are bounded).',
  debugger: false,
  stateChanging: true,
  args: z
    .object({ command: z.string().min(1).max(10_000).describe('a bash command, run in the workspace with no network') })
    .strict(),
  run: (ctx, a) => ctx.bash(a.command),
});
