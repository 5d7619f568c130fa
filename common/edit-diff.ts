/**
 * What an edit changes, as lines and as the names on them. One implementation for the oracle teacher, which plans
 * its inspection around the values its fix changes, and for the SFT filter that checks a trajectory's inspection
 * touched those values: if the two disagreed on what "the changed names" are, the teacher could fail its own filter.
 */

/** A changed region: old lines [oldStart, oldEnd) become new lines [newStart, newEnd) (0-based). */
export interface Hunk {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/** Line diff by longest common subsequence (task files are a few hundred lines: O(n·m) is fine). Hunks closer than
 * `mergeGap` unchanged lines are merged, so one edit covers one change site. */
export function diffHunks(oldLines: string[], newLines: string[], mergeGap = 2): Hunk[] {
  const n = oldLines.length;
  const m = newLines.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = oldLines[i] === newLines[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  let open: Hunk | null = null;
  while (i < n || j < m) {
    if (i < n && j < m && oldLines[i] === newLines[j]) {
      if (open) hunks.push(open);
      open = null;
      i++;
      j++;
    } else {
      open ??= { oldStart: i, oldEnd: i, newStart: j, newEnd: j };
      if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) open.newEnd = ++j;
      else open.oldEnd = ++i;
    }
  }
  if (open) hunks.push(open);
  const merged: Hunk[] = [];
  for (const h of hunks) {
    const last = merged.at(-1);
    if (last && h.oldStart - last.oldEnd <= mergeGap) Object.assign(last, { oldEnd: h.oldEnd, newEnd: h.newEnd });
    else merged.push({ ...h });
  }
  return merged;
}

/** The lines an edit changes: per hunk (unmerged, so no unchanged line rides along), the old lines it replaces or
 * deletes, or, for a pure insertion, the lines it inserts (they are what the edit adds to the bug site). */
export function changedLines(oldText: string, newText: string): string[] {
  const a = oldText.split('\n');
  const b = newText.split('\n');
  return diffHunks(a, b, 0).flatMap((h) => (h.oldEnd > h.oldStart ? a.slice(h.oldStart, h.oldEnd) : b.slice(h.newStart, h.newEnd)));
}

const PY_WORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield self len list dict set str int float bool any all sum min max sorted range enumerate zip isinstance print super tuple type object getattr setattr hasattr'.split(' '),
);

/** A string literal with its prefix (f"…", rb'…'): neither its text nor its prefix is a name. */
export const STRING = /(?:\b[rRbBfFuU]{1,2})?(["'])(?:\\.|(?!\1).)*\1/g;

/** The value names in Python source lines, in order of appearance: `x`, `x.attr` (one attribute deep) or
 * `self.attr`; keywords, common builtins, comments and string literals left out. These are what a debugger can read.
 * A call is not a value: `f(x)` gives `x`, and `items.sort(key)` gives `items` (the object the method acts on). */
export function valueNames(lines: string[]): string[] {
  const out: string[] = [];
  for (const l of lines) {
    const code = l.replace(/#.*$/, '').replace(STRING, '');
    for (const m of code.matchAll(/(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)(\s*\()?/g)) {
      const called = !!m[2];
      if (called && !m[1]!.includes('.')) continue;
      const name = called ? m[1]!.split('.')[0]! : m[1]!;
      const root = name.split('.')[0]!;
      if (!PY_WORDS.has(name) && (root === 'self' || !PY_WORDS.has(root)) && !out.includes(name)) out.push(name);
    }
  }
  return out;
}

/** The values an edit changes: the names on its changed lines. */
export const changedNames = (oldText: string, newText: string): string[] => valueNames(changedLines(oldText, newText));
