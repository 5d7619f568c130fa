/** The `read_file` tool: a window of a workspace file with line numbers; a wrong path answers with the folder's files. */
import { z } from 'zod';
import { numberLines } from '../observation';
import { fail, ok } from '../outcome';
import { refusal } from '../workspace';
import { shownPath } from '../workspace-fs';
import { defineTool, relPath, lineNo } from './define';

/** Larger files are refused (bash can show a part). */
const READ_MAX_BYTES = 2 * 1024 * 1024;

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
  run: async (ctx, a) => {
    const ws = ctx.workspace;
    const shown = shownPath(a.path);
    let buf: Buffer;
    try {
      const st = ws.files.stat(a.path);
      if (!st) return fail(`no such file: ${shown}. ${ws.listing()}`);
      if (st.kind === 'dir') return fail(`${shown} is a directory. ${ws.listing(st.rel)}`);
      if (st.kind === 'file' && st.size > READ_MAX_BYTES) return fail(`${shown} is ${st.size} bytes; use bash (head, sed -n) to read a part of it`);
      buf = ws.files.readFile(a.path, READ_MAX_BYTES).data;
    } catch (e) {
      return refusal(e, 'read');
    }
    if (buf.includes(0)) return fail(`${shown} is a binary file`);
    const lines = buf.toString('utf8').split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    const max = ctx.limits.readFileLines;
    const start = a.start_line ?? 1;
    if (start > lines.length) return fail(`${a.path} has ${lines.length} lines; start_line ${start} is past the end`);
    const end = Math.min(a.end_line ?? start + max - 1, lines.length, start + max - 1);
    if (end < start) return fail(`end_line ${a.end_line} is before start_line ${start}`);
    let out = numberLines(lines.slice(start - 1, end), start);
    if (start > 1 || end < lines.length) out += `\n[showing lines ${start}-${end} of ${lines.length}; use start_line/end_line for more]`;
    return ok(out);
  },
});
