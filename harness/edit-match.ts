/**
 * Edit matching for `edit_file`: old_text must occur exactly once in the file. When it does not, the reason is an
 * observation the model can act on: how many matches and where (so it can add context), or, with no match, whether
 * whitespace alone differs and which lines come nearest.
 */
import { numberLines } from './observation';

/** Matches of old_text are counted up to this many: a one-character old_text in a large file must not cost
 * quadratic time. */
const MAX_MATCHES = 1000;

/** The edited text and where old_text was, or why the edit cannot apply. */
export type EditMatch = { updated: string; pos: number } | { failure: string };

/** Replace the one occurrence of `oldText` in `text` (the file `rel`) by `newText`. */
export function replaceOnce(rel: string, text: string, oldText: string, newText: string): EditMatch {
  const positions: number[] = [];
  for (let i = text.indexOf(oldText); i !== -1 && positions.length <= MAX_MATCHES; i = text.indexOf(oldText, i + 1)) positions.push(i);
  const lines = text.split('\n');
  if (positions.length === 0) return { failure: noMatch(rel, text, lines, oldText) };
  if (positions.length > 1) {
    const at = linesOf(text, positions.slice(0, 20));
    const shown = at.slice(0, 5).map((l) => numberLines(lines.slice(Math.max(0, l - 2), l + 1), Math.max(1, l - 1))).join('\n---\n');
    const count = positions.length > MAX_MATCHES ? `more than ${MAX_MATCHES}` : String(positions.length);
    const where = positions.length > at.length ? `${at.join(', ')} …` : at.join(', ');
    return { failure: `old_text occurs ${count} times in ${rel} (starting at lines ${where}); include more surrounding lines so it matches exactly once:\n${shown}` };
  }
  const pos = positions[0]!;
  return { updated: text.slice(0, pos) + newText + text.slice(pos + oldText.length), pos };
}

/** 1-based line numbers of ascending character positions, in one pass. */
function linesOf(text: string, positions: number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let at = 0;
  for (const pos of positions) {
    for (; at < pos; at++) if (text.charCodeAt(at) === 10) line++;
    out.push(line);
  }
  return out;
}

/** Why old_text matched nothing, with the lines around the best candidate: the first line containing old_text's
 * first line, else the line sharing the longest common prefix with it. */
function noMatch(rel: string, text: string, lines: string[], oldText: string): string {
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
  const hint = squash(text).includes(squash(oldText)) ? ' It does match if whitespace is ignored: check indentation and line breaks.' : '';
  const firstLine = oldText.split('\n').find((l) => l.trim())?.trim() ?? '';
  let best = lines.findIndex((l) => firstLine && l.includes(firstLine));
  if (best < 0) {
    let bestLen = 0;
    lines.forEach((l, i) => {
      const t = l.trim();
      let k = 0;
      while (k < t.length && k < firstLine.length && t[k] === firstLine[k]) k++;
      if (k > bestLen) [bestLen, best] = [k, i];
    });
  }
  const near = best >= 0 ? `\nNearest lines in ${rel}:\n${numberLines(lines.slice(Math.max(0, best - 3), best + 4), Math.max(1, best - 2))}` : '';
  return `old_text was not found in ${rel} (0 matches).${hint}${near}`;
}
