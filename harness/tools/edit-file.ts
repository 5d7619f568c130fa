/** The `edit_file` tool. */
import { z } from 'zod';
import { defineTool, relPath } from './define';

export const editFile = defineTool({
  name: 'edit_file',
  description: 'Replace old_text (which must occur exactly once) with new_text. An empty old_text on a new path creates the file.',
  debugger: false,
  stateChanging: true,
  args: z
    .object({
      path: relPath,
      old_text: z.string().max(100_000).describe('exact text to replace; must occur exactly once. Empty creates a new file'),
      new_text: z.string().max(200_000),
    })
    .strict(),
  run: (ctx, a) => ctx.editFile(a),
});
