/** The `edit_file` tool: replace text that occurs once (edit-match.ts), or create a file; shows the edited lines and
 * restarts a running debugger on the edited code. */
import { z } from 'zod';
import { numberLines } from '../observation';
import { fail, ok } from '../outcome';
import { refusal } from '../workspace';
import { shownPath } from '../workspace-fs';
import { defineTool, relPath } from './define';

/** Lines a text spans, not counting a final newline: "x = 1\n" is one line. */
const span = (t: string) => Math.max(1, t.replace(/\n$/, '').split('\n').length);
const newlines = (t: string) => (t.match(/\n/g) ?? []).length;

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
  run: async (ctx, a) => {
    const ws = ctx.workspace;
    let st;
    try {
      st = ws.files.stat(a.path);
      if (!st) {
        if (a.old_text !== '') return fail(`no such file: ${shownPath(a.path)}. To create it, call edit_file with an empty old_text. ${ws.listing()}`);
        const { rel } = ws.files.createFile(a.path, a.new_text);
        return ok(`Created ${rel} (${a.new_text.split('\n').length} lines).`, { edited: true, created: true });
      }
    } catch (e) {
      return refusal(e, 'edit');
    }
    if (st.kind !== 'file') return fail(`${shownPath(a.path)} is not a regular file`);
    if (a.old_text === '') return fail(`${st.rel} already exists and old_text is empty: old_text must be the exact text to replace (it must occur once)`);
    let edit;
    try {
      edit = ws.edit(a.path, a.old_text, a.new_text);
    } catch (e) {
      return refusal(e, 'edit');
    }
    if ('failure' in edit) return fail(edit.failure);
    const { rel, text, updated, pos } = edit;
    const first = text.slice(0, pos).split('\n').length;
    const last = first + span(a.old_text) - 1;
    const newCount = a.new_text === '' ? 0 : span(a.new_text);
    const from = Math.max(1, first - 2);
    let out = `Edited ${rel}: lines ${first}-${last} replaced by ${newCount} line(s).\n${numberLines(updated.split('\n').slice(from - 1, first + newCount + 1), from)}`;
    const meta: Record<string, unknown> = { edited: true };
    if (!rel.endsWith('.py')) return ok(out, meta);
    // The running test still has the old code loaded: restart it on the new code, its breakpoints shifted.
    const delta = newlines(a.new_text) - newlines(a.old_text);
    const restart = await ctx.debugger.restartAfterEdit(rel, last, delta);
    if (restart) {
      const how = restart.shifted.length
        ? `breakpoints below line ${last} of ${rel} shifted by ${delta > 0 ? '+' : ''}${delta} line(s)`
        : 'no breakpoint needed shifting';
      out += `\n\nThe debugger was restarted on the edited code (${how}; breakpoints restored):\n${restart.outcome.output}`;
      Object.assign(meta, { debuggerRestarted: true, breakpointsShifted: restart.shifted, debuggerError: !restart.outcome.ok });
    }
    return ok(out, meta);
  },
});
