/**
 * The seed's Figure 6 for our corpus: per task, the source lines reachable from the failing tests against the number
 * of files they span, both on log axes, one colour per split. A standalone SVG (no fonts, scripts or network), so it
 * renders on GitHub and in the README.
 */
import { esc } from '../activities/report/svg';
import type { CorpusStats } from './stats';

const SPLIT_COLOUR: Record<string, string> = { train: '#4269d0', validation: '#efb118', test: '#d62728' };

/** Tick values for a log axis from 1 to at least `max`: 1, 2, 5, 10, 20, 50 … */
export function logTicks(max: number): number[] {
  const out: number[] = [];
  for (let decade = 1; decade <= Math.max(1, max) * 10; decade *= 10) {
    for (const m of [1, 2, 5]) {
      out.push(m * decade);
      if (m * decade >= max) return out;
    }
  }
  return out;
}

/** A small deterministic horizontal offset per task id, so tasks with the same file count do not hide each other. */
function jitter(id: string): number {
  let h = 2166136261;
  for (const c of id) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return ((h >>> 0) / 2 ** 32 - 0.5) * 0.08;
}

export function figure6(s: CorpusStats): string {
  const splitOf = s.splits;
  const W = 560, H = 420, left = 64, right = 130, top = 40, bottom = 52;
  const sizes = s.sizes.filter((z) => z.reachableLines > 0 && z.reachableFiles.length > 0);
  const xTicks = logTicks(Math.max(1, ...sizes.map((z) => z.reachableFiles.length)));
  const yTicks = logTicks(Math.max(10, ...sizes.map((z) => z.reachableLines))).filter((t) => t >= 10 || t === 1);
  const yMin = Math.min(10, ...sizes.map((z) => z.reachableLines));
  const [x0, x1] = [Math.log10(0.8), Math.log10(xTicks[xTicks.length - 1]! * 1.25)];
  const [y0, y1] = [Math.log10(Math.max(1, yMin * 0.8)), Math.log10(yTicks[yTicks.length - 1]! * 1.1)];
  // Pixel positions, rounded to 0.1 px to keep the file small and stable.
  const round = (v: number) => Math.round(v * 10) / 10;
  const px = (v: number) => round(left + ((W - left - right) * (Math.log10(v) - x0)) / (x1 - x0));
  const py = (v: number) => round(H - bottom - ((H - top - bottom) * (Math.log10(v) - y0)) / (y1 - y0));
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" role="img" aria-label="Reachable source lines against files per task">`];
  out.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  out.push(`<text x="${(W - right + left) / 2}" y="20" text-anchor="middle" font-weight="bold" font-size="14">Task size: reachable source lines vs files (${s.tasks} tasks)</text>`);
  out.push(`<rect x="${left}" y="${top}" width="${W - left - right}" height="${H - top - bottom}" fill="none" stroke="#888"/>`);
  for (const t of xTicks) {
    if (px(t) > W - right) continue;
    out.push(`<line x1="${px(t)}" y1="${top}" x2="${px(t)}" y2="${H - bottom}" stroke="#eee"/>`);
    out.push(`<text x="${px(t)}" y="${H - bottom + 15}" text-anchor="middle" font-size="11" fill="#555">${t}</text>`);
  }
  for (const t of yTicks) {
    if (py(t) < top || py(t) > H - bottom) continue;
    out.push(`<line x1="${left}" y1="${py(t)}" x2="${W - right}" y2="${py(t)}" stroke="#eee"/>`);
    out.push(`<text x="${left - 6}" y="${py(t) + 4}" text-anchor="end" font-size="11" fill="#555">${t}</text>`);
  }
  out.push(`<text x="${(W - right + left) / 2}" y="${H - 14}" text-anchor="middle" font-size="12">files reachable from the failing tests (log)</text>`);
  out.push(`<text x="16" y="${(H - bottom + top) / 2}" text-anchor="middle" font-size="12" transform="rotate(-90 16 ${(H - bottom + top) / 2})">source lines, no tests, comments or blanks (log)</text>`);
  // The seed's median task: 132 lines across 3 files.
  const sx = px(s.seedMedian.files), sy = py(s.seedMedian.sourceLines);
  out.push(`<path d="M${sx - 7} ${sy}h14M${sx} ${sy - 7}v14" stroke="#000" stroke-width="2"/>`);
  for (const z of sizes) {
    const split = splitOf[z.id] ?? '?';
    const cx = px(z.reachableFiles.length * 10 ** jitter(z.id));
    out.push(`<circle cx="${cx.toFixed(1)}" cy="${py(z.reachableLines).toFixed(1)}" r="4" fill="${SPLIT_COLOUR[split] ?? '#777'}" fill-opacity="0.7"><title>${esc(`${z.id} (${split}): ${z.reachableLines} lines, ${z.reachableFiles.length} files`)}</title></circle>`);
  }
  const lx = W - right + 14;
  Object.entries(SPLIT_COLOUR).forEach(([split, colour], i) => {
    const n = Object.values(splitOf).filter((v) => v === split).length;
    out.push(`<circle cx="${lx}" cy="${top + 8 + i * 20}" r="5" fill="${colour}"/><text x="${lx + 10}" y="${top + 12 + i * 20}" font-size="12">${split} (${n})</text>`);
  });
  out.push(`<path d="M${lx - 6} ${top + 68}h12M${lx} ${top + 62}v12" stroke="#000" stroke-width="2"/><text x="${lx + 10}" y="${top + 72}" font-size="12">seed median</text>`);
  if (s.sourceLines && s.reachableFiles) {
    out.push(`<text x="${lx - 6}" y="${top + 96}" font-size="11" fill="#555">our median:</text>`);
    out.push(`<text x="${lx - 6}" y="${top + 110}" font-size="11" fill="#555">${s.sourceLines.median} lines, ${s.reachableFiles.median} files</text>`);
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
