/** The evaluation report: a JSON document, a Markdown summary and a self-contained HTML page with inline SVG charts
 * reproducing the seed's figures. Everything is computed from stored trajectories by common/metrics.ts. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Arm } from '../../common/evaluation';
import { FAILURE_KINDS, median, summarizeArm, episodeFacts, type ArmSummary } from '../../common/metrics';
import type { TrajectoryRecord } from '../../common/trajectory';
import { barChart, esc, scatter } from './svg';

export const REPORT_SCHEMA = 'debugrl.evaluation-report/v1';

export interface ToolsetComparison {
  policy: string;
  withDebugger: string;
  withoutDebugger: string;
  perTask: { taskId: string; turnsWith: number | null; turnsWithout: number | null; openedDebugger: boolean }[];
}

/** How the evaluation was run, shown at the top of the report (absent in reports built without it). */
export interface RunConfig {
  policy: string;
  compare?: string | null;
  split?: string | null;
  taskIds?: string[] | null;
  episodesPerTask: number;
  /** Episode i samples with seed firstSeed + i (absent: 0, from before the field). */
  firstSeed?: number;
  toolset: string;
  limits: Record<string, number>;
}

/** One row per episode: enough to find it (`npx debugrl show <episodeId>`) and see how it ended. */
export interface EpisodeLine {
  episodeId: string;
  taskId: string;
  arm: string | null;
  seed: number;
  passed: boolean;
  exitReason: string;
  turns: number;
  tokens: number;
  error: string | null;
}

export interface Report {
  schema: typeof REPORT_SCHEMA;
  evaluationId: string;
  k: number;
  generatedAt: string;
  config: RunConfig | null;
  arms: { arm: Arm; summary: ArmSummary }[];
  toolsetComparisons: ToolsetComparison[];
  episodes: EpisodeLine[];
}

/** `failingTests`: task id → task.json `failing_tests`, for the targeted-starts metric (left out: shown as n/a). */
export function buildReport(input: { evaluationId: string; k: number; arms: Arm[]; records: TrajectoryRecord[]; generatedAt?: string; config?: RunConfig; failingTests?: Record<string, string[]> }): Report {
  const failing = new Map(Object.entries(input.failingTests ?? {}));
  const arms = input.arms.map((arm) => ({ arm, summary: summarizeArm(input.records.filter((r) => r.arm === arm.label), input.k, failing) }));
  const toolsetComparisons: ToolsetComparison[] = [];
  for (const a of input.arms.filter((x) => x.toolset === 'full')) {
    const b = input.arms.find((x) => x.toolset === 'no-debugger' && x.policy === a.policy);
    if (!b) continue;
    const tasks = [...new Set(input.records.filter((r) => r.arm === a.label || r.arm === b.label).map((r) => r.taskId))].sort();
    toolsetComparisons.push({
      policy: a.policy,
      withDebugger: a.label,
      withoutDebugger: b.label,
      perTask: tasks.map((taskId) => {
        const withRecs = input.records.filter((r) => r.arm === a.label && r.taskId === taskId);
        const withoutRecs = input.records.filter((r) => r.arm === b.label && r.taskId === taskId);
        return {
          taskId,
          turnsWith: median(withRecs.map((r) => r.turns.length)),
          turnsWithout: median(withoutRecs.map((r) => r.turns.length)),
          openedDebugger: withRecs.some((r) => episodeFacts(r).openedDebugger),
        };
      }),
    });
  }
  const episodes: EpisodeLine[] = [...input.records]
    .sort((a, b) => a.taskId.localeCompare(b.taskId) || (a.arm ?? '').localeCompare(b.arm ?? '') || a.seed - b.seed)
    .map((r) => ({ episodeId: r.episodeId, taskId: r.taskId, arm: r.arm, seed: r.seed, passed: r.outcome.passed, exitReason: r.outcome.exitReason, turns: r.turns.length, tokens: r.tokens.prompt + r.tokens.completion, error: r.outcome.error }));
  return { schema: REPORT_SCHEMA, evaluationId: input.evaluationId, k: input.k, generatedAt: input.generatedAt ?? new Date().toISOString(), config: input.config ?? null, arms, toolsetComparisons, episodes };
}

const pct = (v: number | null) => (v === null ? 'n/a' : `${(100 * v).toFixed(1)}%`);
const num = (v: number | null, d = 1) => (v === null ? 'n/a' : v.toFixed(d));

function tableRows(report: Report): [string, (s: ArmSummary) => string][] {
  const k = report.k;
  return [
    ['episodes', (s) => String(s.episodes)],
    ['tasks', (s) => String(s.tasks)],
    ['pass@1', (s) => pct(s.passAt1)],
    [`pass@${k}`, (s) => pct(s.passAtK)],
    ['tasks solved at least once', (s) => `${s.solvedAtLeastOnce}/${s.tasks}`],
    ['tasks solved in every episode', (s) => `${s.solvedEveryEpisode}/${s.tasks}`],
    ['median turns (all / pass / fail)', (s) => `${num(s.turns.median)} / ${num(s.turns.medianSuccess)} / ${num(s.turns.medianFailure)}`],
    ['share at the turn cap (all / pass / fail)', (s) => `${pct(s.turns.shareAtCap)} / ${pct(s.turns.shareAtCapSuccess)} / ${pct(s.turns.shareAtCapFailure)}`],
    ['opened the debugger', (s) => pct(s.debugger.shareOpened)],
    ['median first debugger turn', (s) => num(s.debugger.medianFirstTurn)],
    ['debugger calls per episode', (s) => num(s.debugger.callsPerEpisode, 2)],
    ['inspection → edit conversion', (s) => `${pct(s.debugger.inspectionToEdit)} (of ${s.debugger.episodesWithInspection})`],
    ['targeted starts (start_debugger naming a failing test)', (s) => `${pct(s.debugger.targetedStarts)} (of ${s.debugger.startsWithKnownTests} starts)`],
    ['breakpoints never hit', (s) => String(s.debugger.breakpointsNeverHit)],
    ['debugger command errors', (s) => String(s.debugger.commandErrors)],
    ...FAILURE_KINDS.map((kind): [string, (s: ArmSummary) => string] => [`failures: ${kind.replace(/_/g, ' ')}`, (s) => String(s.failures[kind])]),
    ['tokens per episode (mean / median)', (s) => `${num(s.tokens.meanPerEpisode, 0)} / ${num(s.tokens.medianPerEpisode, 0)}`],
  ];
}

function configRows(report: Report): [string, string][] {
  const c = report.config;
  if (!c) return [];
  return [
    ['policy', c.policy],
    ...(c.compare ? [['compared with', c.compare] as [string, string]] : []),
    ['tasks', c.split ? `split ${c.split}` : (c.taskIds ?? []).join(', ')],
    ['episodes per task (n)', String(c.episodesPerTask)],
    ['sampling seeds', `${c.firstSeed ?? 0}..${(c.firstSeed ?? 0) + c.episodesPerTask - 1}`],
    ['k', String(report.k)],
    ['tool set', c.toolset],
    ['turn cap', String(c.limits.maxTurns ?? 'n/a')],
    ['context tokens', String(c.limits.maxContextTokens ?? 'n/a')],
    ['max new tokens per reply', String(c.limits.maxNewTokens ?? 'server default')],
  ];
}

/** Where two numbers look contradictory, say why. */
function notes(report: Report): string[] {
  const out: string[] = [];
  for (const a of report.arms) {
    const d = a.summary.debugger;
    if ((d.callsPerEpisode ?? 0) > 0 && (d.shareOpened ?? 0) === 0) {
      out.push(`${a.arm.label}: debugger calls per episode is ${num(d.callsPerEpisode, 2)} while no episode opened the debugger. Debugger tools can be called without a running session; each such call is a command error (${d.commandErrors} here), not debugger use.`);
    }
  }
  return out;
}

export function renderMarkdown(report: Report): string {
  const rows = tableRows(report);
  const lines = [
    `# Evaluation ${report.evaluationId}`,
    '',
    `Generated ${report.generatedAt}. pass@k uses the unbiased estimator 1 − C(n−c,k)/C(n,k) per task, averaged over tasks (k=${report.k}).`,
    '',
    ...(report.config ? ['| setting | value |', '| --- | --- |', ...configRows(report).map(([k, v]) => `| ${k} | ${v} |`), ''] : []),
    `| metric | ${report.arms.map((a) => a.arm.label).join(' | ')} |`,
    `| --- | ${report.arms.map(() => '---').join(' | ')} |`,
    ...rows.map(([name, f]) => `| ${name} | ${report.arms.map((a) => f(a.summary)).join(' | ')} |`),
    '',
    '## Per task',
    '',
    `| task | ${report.arms.map((a) => `${a.arm.label} (c/n, median turns)`).join(' | ')} |`,
    `| --- | ${report.arms.map(() => '---').join(' | ')} |`,
  ];
  const tasks = [...new Set(report.arms.flatMap((a) => a.summary.perTask.map((t) => t.taskId)))].sort();
  for (const t of tasks) {
    lines.push(`| ${t} | ${report.arms.map((a) => {
      const p = a.summary.perTask.find((x) => x.taskId === t);
      return p ? `${p.c}/${p.n}, ${num(p.medianTurns)}` : '–';
    }).join(' | ')} |`);
  }
  const n = notes(report);
  if (n.length) lines.push('', '## Notes', '', ...n.map((x) => `- ${x}`));
  return `${lines.join('\n')}\n`;
}

export function renderHtml(report: Report): string {
  const rows = tableRows(report);
  const charts: string[] = [];
  for (const c of report.toolsetComparisons) {
    const points = c.perTask.filter((t) => t.turnsWith !== null && t.turnsWithout !== null).map((t) => ({ x: t.turnsWithout!, y: t.turnsWith!, label: t.taskId, highlight: t.openedDebugger }));
    charts.push(scatter({ title: 'Turns per task with and without the debugger', subtitle: c.policy, xLabel: 'median turns without debugger', yLabel: 'median turns with debugger', points, highlightLabel: 'debugger opened' }));
  }
  charts.push(barChart({ title: 'Solve rate by arm', groups: report.arms.map((a) => ({ label: a.arm.label, values: [{ name: 'pass@1', value: a.summary.passAt1 }, { name: `pass@${report.k}`, value: a.summary.passAtK }, { name: 'solved at least once', value: a.summary.tasks ? a.summary.solvedAtLeastOnce / a.summary.tasks : null }] })), max: 1, format: (v) => `${(100 * v).toFixed(0)}%` }));
  charts.push(barChart({ title: 'Median assistant turns', groups: report.arms.map((a) => ({ label: a.arm.label, values: [{ name: 'median turns', value: a.summary.turns.median }] })), format: (v) => v.toFixed(1) }));
  charts.push(barChart({ title: 'Share of episodes reaching the turn cap', groups: report.arms.map((a) => ({ label: a.arm.label, values: [{ name: 'at the cap', value: a.summary.turns.shareAtCap }] })), max: 1, format: (v) => `${(100 * v).toFixed(0)}%` }));
  charts.push(barChart({ title: 'Debugger use', groups: report.arms.map((a) => ({ label: a.arm.label, values: [{ name: 'opened the debugger', value: a.summary.debugger.shareOpened }, { name: 'inspection → edit', value: a.summary.debugger.inspectionToEdit }] })), max: 1, format: (v) => `${(100 * v).toFixed(0)}%` }));
  charts.push(barChart({ title: 'Failures by kind (episodes)', groups: report.arms.map((a) => ({ label: a.arm.label, values: FAILURE_KINDS.map((kind) => ({ name: kind.replace(/_/g, ' '), value: a.summary.failures[kind] })) })), format: (v) => String(Math.round(v)) }));
  const th = report.arms.map((a) => `<th>${esc(a.arm.label)}</th>`).join('');
  const table = rows.map(([name, f]) => `<tr><td>${esc(name)}</td>${report.arms.map((a) => `<td>${esc(f(a.summary))}</td>`).join('')}</tr>`).join('\n');
  const md = renderMarkdown(report);
  const perTask = md.slice(md.indexOf('## Per task'));
  const perTaskRows = perTask.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| task') && !l.startsWith('| ---'));
  const config = configRows(report);
  const configTable = config.length ? `<h2>Configuration</h2>\n<table>${config.map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(v)}</td></tr>`).join('')}</table>` : '';
  const noteList = notes(report);
  const noteHtml = noteList.length ? `<h2>Notes</h2><ul>${noteList.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>` : '';
  const episodeRows = report.episodes
    .map((e) => `<tr><td>${esc(e.taskId)}</td><td>${esc(e.arm ?? '')}</td><td>${e.seed}</td><td>${e.passed ? 'pass' : 'fail'}</td><td>${esc(e.exitReason)}</td><td>${e.turns}</td><td>${e.tokens}</td><td>${esc((e.error ?? '').slice(0, 200))}</td><td><code>${esc(e.episodeId)}</code></td></tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>debugrl evaluation ${esc(report.evaluationId)}</title>
<style>body{font-family:system-ui,sans-serif;margin:24px;max-width:1200px;color:#222}table{border-collapse:collapse;margin:12px 0}
td,th{border:1px solid #ccc;padding:4px 8px;font-size:13px;text-align:left}th{background:#f4f4f4}.charts{display:flex;flex-wrap:wrap;gap:16px}
.charts svg{border:1px solid #eee;background:#fff}</style></head>
<body>
<h1>Evaluation <code>${esc(report.evaluationId)}</code></h1>
<p>Generated ${esc(report.generatedAt)}. pass@k uses the unbiased estimator 1 − C(n−c,k)/C(n,k) per task, averaged over tasks (k=${report.k}).
Recompute with <code>npx debugrl report ${esc(report.evaluationId)}</code>; read any episode with <code>npx debugrl show &lt;episode id&gt;</code> or <code>npx debugrl serve</code>.</p>
${configTable}
<div class="charts">${charts.join('\n')}</div>
<h2>Metrics</h2>
<table><tr><th>metric</th>${th}</tr>
${table}</table>
${noteHtml}
<h2>Per task (c/n passed, median turns)</h2>
<table><tr><th>task</th>${th}</tr>
${perTaskRows.map((l) => `<tr>${l.split('|').slice(1, -1).map((c) => `<td>${esc(c.trim())}</td>`).join('')}</tr>`).join('\n')}</table>
<h2>Episodes (${report.episodes.length})</h2>
<table><tr><th>task</th><th>arm</th><th>seed</th><th>outcome</th><th>exit reason</th><th>turns</th><th>tokens</th><th>error</th><th>episode id</th></tr>
${episodeRows}</table>
</body></html>
`;
}

export function writeReport(report: Report, outDir: string): { html: string; json: string; markdown: string } {
  fs.mkdirSync(outDir, { recursive: true });
  const files = { html: path.join(outDir, 'report.html'), json: path.join(outDir, 'report.json'), markdown: path.join(outDir, 'report.md') };
  fs.writeFileSync(files.json, `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(files.markdown, renderMarkdown(report));
  fs.writeFileSync(files.html, renderHtml(report));
  return files;
}
