/** The `read_file` tool. */
import { z } from 'zod';
import { defineTool, relPath, lineNo } from './define';

export const readFile = defineTool({
  name: 'read_file',
  description: 'Show a file with line numbers (at most 200 lines per call).',
  debugger: false,
  stateChanging: false,
  args: z
    .object({
      path: relPath,
      start_line: lineNo.optional().describe('first line to show (default 1)'),
      end_line: lineNo.optional().describe('last line to show (default start_line + 199)'),
    })
    .strict(),
  run: (ctx, a) => ctx.readFile(a),
});
