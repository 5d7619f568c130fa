/** The training report: one point per committed step (reward, pass rate, KL, clipping, ratios and off-policy weights,
 * lag histogram and stale drops, learner busy fraction, curriculum phase and 30-70 % share, validation pass@1), as a
 * self-contained HTML page with inline SVG line charts, plus the same data as JSON. Rewritten after every step. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bucketSeries, mismatchOf, type MismatchMetrics } from '../common/mismatch';
import { chainBreakRate, formatTokenChain, sumTokenChains, type TokenChainCounts } from '../common/token-chain';
import type { StepPoint, StepResult } from '../common/training';
import { esc } from './report/svg';

export const TRAINING_REPORT_SCHEMA = 'debugrl.training-report/v1';

export interface TrainingReport {
  schema: typeof TRAINING_REPORT_SCHEMA;
  runId: string;
  generatedAt: string;
  points: StepPoint[];
  lagHistogram: Record<string, number>;
  staleGroupsRejected: number;
  rejectedTrajectories: Record<string, number>;
  /** Zero-signal groups (all rewards equal, common/zero-signal.ts) over the steps that counted them: left out of
   * training, trained anyway, and their share of the groups that were either trained or left out (null: none counted). */
  zeroSignal: { dropped: number; trained: number; groups: number; share: number | null };
  /** Train/serve mismatch and the off-policy correction per step (common/mismatch.ts), for the steps that report it. */
  mismatch?: { step: number; metrics: MismatchMetrics }[];
  /** Token-chain breaks and stale-KV turns over the trained episodes (common/token-chain.ts), per step and summed, for
   * the steps that counted them; absent when none did. */
  tokenChain?: { total: TokenChainCounts; steps: { step: number; counts: TokenChainCounts }[] };
}

export function buildTrainingReport(runId: string, points: StepPoint[], steps: StepResult[], generatedAt = new Date().toISOString()): TrainingReport {
  const lagHistogram: Record<string, number> = {};
  const rejectedTrajectories: Record<string, number> = {};
  for (const s of steps) {
    for (const [lag, n] of Object.entries(s.lagHistogram)) lagHistogram[lag] = (lagHistogram[lag] ?? 0) + n;
    for (const r of s.rejectedTrajectories) rejectedTrajectories[r.reason] = (rejectedTrajectories[r.reason] ?? 0) + 1;
  }
  const staleGroupsRejected = steps.reduce((n, s) => n + s.rejectedGroups.filter((g) => g.reason === 'policy-lag').length, 0);
  const counted = points.filter((p) => p.zeroSignalDropped !== undefined);
  const dropped = counted.reduce((n, p) => n + (p.zeroSignalDropped ?? 0), 0);
  const trained = counted.reduce((n, p) => n + (p.zeroSignalTrained ?? 0), 0);
  const groups = dropped + counted.reduce((n, p) => n + p.trained, 0);
  const zeroSignal = { dropped, trained, groups, share: groups ? (dropped + trained) / groups : null };
  const mismatch = steps.flatMap((s) => {
    const m = mismatchOf(s.metrics);
    return m ? [{ step: s.step, metrics: m }] : [];
  });
  const chains = steps.flatMap((s) => (s.tokenChain ? [{ step: s.step, counts: s.tokenChain }] : []));
  const tokenChain = chains.length ? { total: sumTokenChains(chains.map((c) => c.counts)), steps: chains } : undefined;
  return { schema: TRAINING_REPORT_SCHEMA, runId, generatedAt, points, lagHistogram, staleGroupsRejected, rejectedTrajectories, zeroSignal, mismatch, ...(tokenChain ? { tokenChain } : {}) };
}

/** The token-chain chart: per step, the share of checked turns whose prompt did not extend the previous turn's
 * tokens, and the turns that reused KV from an older adapter version (0 on the embedded server). */
export function tokenChainCharts(steps: number[], chain: TrainingReport['tokenChain']): string[] {
  if (!chain) return [];
  const byStep = new Map(chain.steps.map((c) => [c.step, c.counts]));
  const cs = steps.map((s) => byStep.get(s) ?? null);
  return [
    lineChart('Token-chain break rate and stale-KV turns', steps, [
      { name: 'break rate', values: cs.map((c) => (c ? chainBreakRate(c) : null)) },
      { name: 'stale-KV turns', values: cs.map((c) => (c && c.staleKvReported ? c.staleKvTurns : null)) },
    ]),
  ];
}

/** The mismatch charts: k3 KL(served || learner) overall, at lag 0 and by lag, turn and length; what the correction kept. */
export function mismatchCharts(steps: number[], rows: { step: number; metrics: MismatchMetrics }[]): string[] {
  const byStep = new Map(rows.map((r) => [r.step, r.metrics]));
  const ms = steps.map((s) => byStep.get(s) ?? null);
  if (!ms.some((m) => m !== null)) return [];
  const mode = [...new Set(rows.map((r) => r.metrics.offpolicy_mode))].join(', ');
  return [
    lineChart('Mismatch k3 KL(served ‖ learner)', steps, [{ name: 'lag 0', values: ms.map((m) => m?.mismatch_k3_lag0 ?? null) }, { name: 'all', values: ms.map((m) => m?.mismatch_k3 ?? null) }]),
    lineChart(`Off-policy correction (${mode}): kept and ESS`, steps, [
      { name: 'ESS', values: ms.map((m) => m?.offpolicy_ess ?? null) },
      { name: 'masked tok', values: ms.map((m) => m?.masked_token_frac ?? null) },
      { name: 'masked resp', values: ms.map((m) => m?.masked_response_frac ?? null) },
      { name: 'clipped tok', values: ms.map((m) => m?.clipped_token_frac ?? null) },
    ]),
    lineChart('Mismatch k3 by policy lag', steps, bucketSeries(ms, 'lag', 'k3')),
    lineChart('Mismatch k3 by turn', steps, bucketSeries(ms, 'turn', 'k3')),
    lineChart('Mismatch k3 by trajectory length', steps, bucketSeries(ms, 'length', 'k3')),
    lineChart('Masked token share by policy lag', steps, bucketSeries(ms, 'lag', 'masked')),
  ];
}

const COLORS = ['#4269d0', '#ff725c', '#3ca951', '#efb118'];

/** A line chart over steps; several series share the y axis. Missing values (null) break the line. */
export function lineChart(title: string, steps: number[], series: { name: string; values: (number | null)[] }[]): string {
  const W = 420, H = 220, left = 50, right = 12, top = 30, bottom = 40;
  const vals = series.flatMap((s) => s.values).filter((v): v is number => v !== null && Number.isFinite(v));
  const lo = vals.length ? Math.min(0, ...vals) : 0;
  const hi = vals.length ? Math.max(...vals, lo + 1e-9) : 1;
  const x = (i: number) => left + (steps.length <= 1 ? (W - left - right) / 2 : (i * (W - left - right)) / (steps.length - 1));
  const y = (v: number) => top + (H - top - bottom) * (1 - (v - lo) / (hi - lo));
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" role="img" aria-label="${esc(title)}">`];
  out.push(`<text x="${W / 2}" y="16" text-anchor="middle" font-weight="bold" font-size="13">${esc(title)}</text>`);
  for (const f of [0, 0.5, 1]) {
    const v = lo + (hi - lo) * f;
    out.push(`<line x1="${left}" y1="${y(v)}" x2="${W - right}" y2="${y(v)}" stroke="#eee"/><text x="${left - 4}" y="${y(v) + 4}" text-anchor="end" font-size="10" fill="#555">${esc(v.toPrecision(3))}</text>`);
  }
  steps.forEach((s, i) => out.push(`<text x="${x(i)}" y="${H - bottom + 14}" text-anchor="middle" font-size="10" fill="#555">${s}</text>`));
  out.push(`<text x="${(W + left) / 2}" y="${H - 6}" text-anchor="middle" font-size="10">step</text>`);
  series.forEach((s, k) => {
    const c = COLORS[k % COLORS.length];
    let d = '';
    s.values.forEach((v, i) => {
      if (v === null || !Number.isFinite(v)) return void (d += ' ');
      d += `${d.endsWith(' ') || !d ? 'M' : 'L'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
      out.push(`<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="${c}"><title>${esc(`${s.name} @ step ${steps[i]}: ${v}`)}</title></circle>`);
    });
    out.push(`<path d="${d.trim()}" fill="none" stroke="${c}" stroke-width="2"/>`);
    out.push(`<rect x="${left + k * 100}" y="${top - 8}" width="8" height="8" fill="${c}"/><text x="${left + k * 100 + 11}" y="${top}" font-size="10">${esc(s.name)}</text>`);
  });
  out.push('</svg>');
  return out.join('');
}

const zeroSignalText = (z: TrainingReport['zeroSignal'] | undefined) =>
  z?.share === null || z === undefined ? 'not counted' : `${z.dropped + z.trained} of ${z.groups} (${(100 * z.share).toFixed(0)} %), ${z.dropped} left out, ${z.trained} trained`;

export function renderTrainingHtml(r: TrainingReport): string {
  const steps = r.points.map((p) => p.step);
  const col = (f: (p: StepPoint) => number | null) => r.points.map(f);
  const charts = [
    lineChart('Reward and pass rate', steps, [{ name: 'mean reward', values: col((p) => p.meanReward) }, { name: 'pass rate', values: col((p) => p.passRate) }]),
    lineChart('KL to the reference (mean k3)', steps, [{ name: 'KL', values: col((p) => p.klMean) }]),
    lineChart('Behaviour-cloning loss on replayed SFT examples', steps, [{ name: 'BC loss', values: col((p) => p.bcLoss ?? null) }]),
    lineChart('Clip fractions', steps, [{ name: 'low', values: col((p) => p.clipLow) }, { name: 'high', values: col((p) => p.clipHigh) }]),
    lineChart('Ratio and off-policy weight (means)', steps, [{ name: 'ratio', values: col((p) => p.ratioMean) }, { name: 'w', values: col((p) => p.offpolicyWeightMean) }]),
    lineChart('Learner busy fraction', steps, [{ name: 'busy', values: col((p) => p.busyFraction) }]),
    lineChart('Stale groups and refused trajectories', steps, [{ name: 'stale groups', values: col((p) => p.staleGroups) }, { name: 'refused', values: col((p) => p.rejectedTrajectories) }]),
    lineChart('Curriculum: share of tasks at 30-70 %', steps, [{ name: 'share', values: col((p) => p.share3070) }]),
    lineChart('Validation pass@1', steps, [{ name: 'pass@1', values: col((p) => p.validationPass1) }]),
    ...mismatchCharts(steps, r.mismatch ?? []),
    ...tokenChainCharts(steps, r.tokenChain),
  ];
  const lags = Object.entries(r.lagHistogram).sort((a, b) => Number(a[0]) - Number(b[0]));
  const rows = r.points
    .map((p) => `<tr><td>${p.step}</td><td>${p.version}</td><td>${p.meanReward.toFixed(3)}</td><td>${p.passRate.toFixed(2)}</td><td>${p.trained}</td><td>${p.zeroSignalTrained ?? '—'}</td><td>${p.zeroSignalDropped ?? '—'}</td><td>${esc(p.curriculumPhase)}</td><td>${p.lag0MeanAbsLogRatio === null ? '—' : p.lag0MeanAbsLogRatio.toExponential(2)}</td></tr>`)
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Training ${esc(r.runId)}</title>
<style>body{font-family:system-ui,sans-serif;margin:24px;max-width:1000px}svg{margin:6px}td,th{padding:2px 10px;text-align:right}</style></head><body>
<h1>Training run ${esc(r.runId)}</h1><p>Generated ${esc(r.generatedAt)}. ${r.points.length} step(s); stale groups refused: ${r.staleGroupsRejected};
refused trajectories: ${esc(JSON.stringify(r.rejectedTrajectories))}; zero-signal groups: ${zeroSignalText(r.zeroSignal)}; lag histogram (trajectories per lag): ${esc(lags.map(([l, n]) => `${l}: ${n}`).join(', ') || 'none')}${r.tokenChain ? `; ${esc(formatTokenChain(r.tokenChain.total))}` : ''}.</p>
<div>${charts.join('')}</div>
<table><tr><th>step</th><th>version</th><th>reward</th><th>pass</th><th>groups</th><th>zero-signal trained</th><th>zero-signal dropped</th><th>phase</th><th>lag-0 |log ρ|</th></tr>${rows}</table></body></html>`;
}

export function writeTrainingReport(r: TrainingReport, outDir: string): { html: string; json: string } {
  fs.mkdirSync(outDir, { recursive: true });
  const html = path.join(outDir, 'training.html');
  const json = path.join(outDir, 'training.json');
  fs.writeFileSync(json, JSON.stringify(r, null, 2));
  fs.writeFileSync(html, renderTrainingHtml(r));
  return { html, json };
}
