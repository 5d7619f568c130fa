/** Minimal inline-SVG charts for the self-contained HTML report (no network, no chart library). Pure functions. */

export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Axis ticks at round values: steps of 1, 2 or 5 × 10^k, about four of them. */
function niceStep(span: number): number {
  const raw = span / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw * (1 - 1e-9))!;
}
/** The smallest round range holding [lo, hi]. */
export function niceRange(lo: number, hi: number): [number, number] {
  if (hi - lo < 1e-12) [lo, hi] = [lo - 0.5, hi + 0.5];
  const step = niceStep(hi - lo);
  return [Math.floor(lo / step + 1e-9) * step, Math.ceil(hi / step - 1e-9) * step];
}
export function niceTicks(lo: number, hi: number): number[] {
  const step = niceStep(hi - lo);
  const out: number[] = [];
  for (let t = lo; t <= hi + step / 1e6; t += step) out.push(+t.toFixed(10));
  return out;
}

const PALETTE = ['#4269d0', '#efb118', '#ff725c', '#6cc5b0', '#3ca951', '#ff8ab7', '#a463f2', '#97bbf5'];

export interface BarGroup {
  label: string;
  values: { name: string; value: number | null }[];
}

/** Shorten a label to fit `chars`, keeping its end (an arm label ends with its tool set, the part that differs). */
export function fitLabel(label: string, chars: number): string {
  return label.length <= chars ? label : `…${label.slice(label.length - chars + 1)}`;
}

/** Grouped vertical bars. `format` renders the value above each bar; `max` fixes the axis (e.g. 1 for rates). */
export function barChart(opts: { title: string; groups: BarGroup[]; max?: number; format: (v: number) => string }): string {
  const names = [...new Set(opts.groups.flatMap((g) => g.values.map((v) => v.name)))];
  const BAR = 28, STEP = 34, GAP = 16;
  const groupW = Math.max(150, names.length * STEP);
  const top = 36, bottom = 60, left = 46;
  const W = Math.max(360, left + 10 + opts.groups.length * (groupW + GAP));
  const H = 260;
  const plotH = H - top - bottom;
  const max = opts.max ?? niceRange(0, Math.max(1e-9, ...opts.groups.flatMap((g) => g.values.map((v) => v.value ?? 0))) * 1.1)[1];
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" role="img" aria-label="${esc(opts.title)}">`];
  out.push(`<text x="${W / 2}" y="18" text-anchor="middle" font-weight="bold" font-size="13">${esc(fitLabel(opts.title, Math.floor(W / 7.5)))}</text>`);
  out.push(`<line x1="${left}" y1="${top + plotH}" x2="${W - 10}" y2="${top + plotH}" stroke="#888"/>`);
  for (const t of niceTicks(0, max)) {
    const y = top + plotH * (1 - t / max);
    out.push(`<text x="${left - 6}" y="${y + 4}" text-anchor="end" font-size="10" fill="#555">${esc(opts.format(t))}</text>`);
    out.push(`<line x1="${left}" y1="${y}" x2="${W - 10}" y2="${y}" stroke="#eee"/>`);
  }
  opts.groups.forEach((g, gi) => {
    const gx = left + GAP / 2 + gi * (groupW + GAP);
    let x = gx + (groupW - g.values.length * STEP + (STEP - BAR)) / 2;
    for (const v of g.values) {
      const color = PALETTE[names.indexOf(v.name) % PALETTE.length];
      const h = v.value === null ? 0 : (plotH * Math.min(v.value, max)) / max;
      out.push(`<rect x="${x}" y="${top + plotH - h}" width="${BAR}" height="${h}" fill="${color}"><title>${esc(`${g.label} — ${v.name}: ${v.value === null ? 'n/a' : opts.format(v.value)}`)}</title></rect>`);
      out.push(`<text x="${x + BAR / 2}" y="${top + plotH - h - 4}" text-anchor="middle" font-size="10">${v.value === null ? 'n/a' : esc(opts.format(v.value))}</text>`);
      x += STEP;
    }
    out.push(`<text x="${gx + groupW / 2}" y="${top + plotH + 16}" text-anchor="middle" font-size="11"><title>${esc(g.label)}</title>${esc(fitLabel(g.label, Math.floor(groupW / 6.5)))}</text>`);
  });
  names.forEach((n, i) => {
    out.push(`<rect x="${left + i * 150}" y="${H - 20}" width="10" height="10" fill="${PALETTE[i % PALETTE.length]}"/>`);
    out.push(`<text x="${left + i * 150 + 14}" y="${H - 11}" font-size="11">${esc(n)}</text>`);
  });
  out.push('</svg>');
  return out.join('');
}

export interface ScatterPoint {
  x: number;
  y: number;
  label: string;
  highlight: boolean;
}

/** A square scatter with the dashed y = x line: points above it took more turns on the y arm. */
export function scatter(opts: { title: string; subtitle?: string; xLabel: string; yLabel: string; points: ScatterPoint[]; highlightLabel: string }): string {
  const S = 320, pad = 46;
  const max = niceRange(0, Math.max(1, ...opts.points.flatMap((p) => [p.x, p.y])))[1];
  const px = (v: number) => pad + ((S - 2 * pad) * v) / max;
  const py = (v: number) => S - pad - ((S - 2 * pad) * v) / max;
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${S + 150}" height="${S}" role="img" aria-label="${esc(opts.title)}">`];
  out.push(`<text x="${(S + 150) / 2}" y="16" text-anchor="middle" font-weight="bold" font-size="13">${esc(fitLabel(opts.title, 60))}</text>`);
  if (opts.subtitle) out.push(`<text x="${(S + 150) / 2}" y="31" text-anchor="middle" font-size="11" fill="#555"><title>${esc(opts.subtitle)}</title>${esc(fitLabel(opts.subtitle, 70))}</text>`);
  out.push(`<rect x="${pad}" y="${pad}" width="${S - 2 * pad}" height="${S - 2 * pad}" fill="none" stroke="#888"/>`);
  out.push(`<line x1="${px(0)}" y1="${py(0)}" x2="${px(max)}" y2="${py(max)}" stroke="#999" stroke-dasharray="5,4"/>`);
  out.push(`<text x="${S / 2}" y="${S - 10}" text-anchor="middle" font-size="11">${esc(opts.xLabel)}</text>`);
  out.push(`<text x="14" y="${S / 2}" text-anchor="middle" font-size="11" transform="rotate(-90 14 ${S / 2})">${esc(opts.yLabel)}</text>`);
  for (const t of niceTicks(0, max)) {
    out.push(`<text x="${px(t)}" y="${S - pad + 14}" text-anchor="middle" font-size="10" fill="#555">${+t.toPrecision(6)}</text>`);
    out.push(`<text x="${pad - 6}" y="${py(t) + 4}" text-anchor="end" font-size="10" fill="#555">${+t.toPrecision(6)}</text>`);
  }
  // Tasks at the same point are drawn once, larger, with their count, so overlaps are never hidden.
  const stacks = new Map<string, ScatterPoint[]>();
  for (const p of opts.points) stacks.set(`${p.x},${p.y},${p.highlight}`, [...(stacks.get(`${p.x},${p.y},${p.highlight}`) ?? []), p]);
  for (const group of stacks.values()) {
    const p = group[0]!;
    const r = group.length > 1 ? 8 : 5;
    out.push(`<circle cx="${px(p.x)}" cy="${py(p.y)}" r="${r}" fill="${p.highlight ? '#d62728' : '#4269d0'}" fill-opacity="0.75"><title>${esc(`${group.map((g) => g.label).join(', ')}: ${p.x} → ${p.y}`)}</title></circle>`);
    if (group.length > 1) out.push(`<text x="${px(p.x)}" y="${py(p.y) + 3.5}" text-anchor="middle" font-size="10" fill="#fff" font-weight="bold">${group.length}</text>`);
  }
  out.push(`<circle cx="${S + 10}" cy="${pad}" r="5" fill="#d62728"/><text x="${S + 20}" y="${pad + 4}" font-size="11">${esc(opts.highlightLabel)}</text>`);
  out.push(`<circle cx="${S + 10}" cy="${pad + 18}" r="5" fill="#4269d0"/><text x="${S + 20}" y="${pad + 22}" font-size="11">other tasks</text>`);
  out.push('</svg>');
  return out.join('');
}
