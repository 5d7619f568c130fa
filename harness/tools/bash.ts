/** The `bash` tool: the command's output (stderr folded in) and how it ended, a kill said in words. */
import { z } from 'zod';
import { droppedNote } from '../observation';
import { fail, ok } from '../outcome';
import { defineTool } from './define';

export const bash = defineTool({
  name: 'bash',
  description: 'Run a shell command in the workspace (no network; output and time are bounded).',
  debugger: false,
  stateChanging: true,
  args: z
    .object({ command: z.string().min(1).max(10_000).describe('a bash command, run in the workspace with no network') })
    .strict(),
  run: async (ctx, a) => {
    const { bashTimeoutMs, bashIdleMs } = ctx.limits;
    const r = await ctx.workspace.bash(a.command, { timeoutMs: bashTimeoutMs, idleTimeoutMs: bashIdleMs });
    let out = r.stdout + droppedNote(r.droppedBytes.stdout, 'output');
    if (r.killed === 'timeout') out += `\n[killed: still running after ${bashTimeoutMs / 1000} s; the whole process group was stopped]`;
    else if (r.killed === 'idle') out += `\n[killed: no output for ${bashIdleMs / 1000} s; the whole process group was stopped]`;
    else if (r.killed === 'output') out += '\n[killed: endless output; the whole process group was stopped]';
    else out += `\n[exit status ${r.exitCode ?? `signal ${r.signal}`}]`;
    return r.killed || r.exitCode !== 0 ? fail(out.trimStart(), { killed: r.killed }) : ok(out.trimStart());
  },
});
