/** Server-rendered HTML for the rollout viewer. Pure functions from data to a page; no network, no client framework.
 * Every page works with JavaScript off; only a live episode's page carries a small script that refreshes it. */
import { diffLines } from 'diff';
import type { Interval } from '../../common/bootstrap';
import { esc, niceRange, niceTicks } from '../../activities/report/svg';
import { LENGTH_WEIGHT_POWER, learnerAdvantages } from '../../common/learner-advantage';
import type { EpisodeRow, EpisodeView, EvaluationRow, TrainingRunRow } from './store';

export interface Links {
  temporalUi: string;
  namespace: string;
}

const pct = (v: unknown) => (typeof v === 'number' ? `${(100 * v).toFixed(1)}%` : 'n/a');
const fmt = (v: unknown, d = 3) => (typeof v === 'number' ? v.toFixed(d) : 'n/a');
const when = (v: string | null) => (v ? new Date(v).toISOString().replace('T', ' ').slice(0, 19) : '—');
const enc = encodeURIComponent;

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f}header{background:#20324f;color:#fff;padding:10px 20px}
header a{color:#fff;margin-right:16px;text-decoration:none}main{padding:16px 20px;max-width:1300px}table{border-collapse:collapse;margin:8px 0}
td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}th{background:#f3f4f6}tr.pass td.o{color:#17803d}tr.fail td.o{color:#b42318}
pre{background:#f7f7f8;padding:8px;overflow-x:auto;white-space:pre-wrap;margin:4px 0;max-height:480px;overflow-y:auto}
.turn{border:1px solid #ddd;border-radius:6px;margin:10px 0;padding:8px 12px}.turn h3{margin:0 0 4px;font-size:14px}
.bad{color:#b42318}.ok{color:#17803d}.mark{background:#fff3c4;padding:0 4px;border-radius:3px}.trunc{background:#fde2e1;padding:0 3px}
.add{background:#e6ffec}.del{background:#ffebe9}.note{color:#555;font-size:13px}.kv td:first-child{font-weight:600}`;

export function layout(title: string, body: string, opts: { live?: boolean } = {}): string {
  // A live page reloads itself every 2 s until the episode has a record; with JavaScript off it is a plain snapshot.
  const live = opts.live ? `<script>setTimeout(()=>location.reload(),2000)</script>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${esc(title)} · debugrl</title><style>${CSS}</style></head>
<body><header><a href="/"><b>debugrl</b></a><a href="/">evaluations</a><a href="/training">training runs</a><a href="/compare">compare</a></header>
<main><h1>${esc(title)}</h1>${body}</main>${live}</body></html>`;
}

export function errorPage(status: number, title: string, detail: string): string {
  return layout(title, `<p class="bad">${esc(detail)}</p><p><a href="/">back to the evaluations</a></p><!-- status ${status} -->`);
}

function table(headers: string[], rows: string[][], rowClass: (i: number) => string = () => ''): string {
  return `<table><tr>${headers.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>${rows.map((r, i) => `<tr class="${rowClass(i)}">${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</table>`;
}

const temporalLink = (l: Links, workflowId: string | null) =>
  workflowId ? `<a href="${esc(`${l.temporalUi}/namespaces/${enc(l.namespace)}/workflows/${enc(workflowId)}`)}">Temporal</a>` : '';

export function evaluationsPage(rows: EvaluationRow[]): string {
  if (!rows.length) return layout('Evaluations', '<p>No evaluations yet. Start one with <code>npx debugrl eval --policy embedded --split test</code>.</p>');
  const body = table(
    ['evaluation', 'policy', 'split', 'n', 'arm', 'pass@1', 'pass@k', 'started', 'finished'],
    rows.flatMap((e) => {
      const arms = e.arms ?? [];
      const base = [`<a href="/evaluations/${enc(e.evaluationId)}">${esc(e.evaluationId)}</a>`, esc(String(e.input.policy ?? '')), esc(String(e.input.split ?? 'tasks')), esc(String(e.input.episodesPerTask ?? ''))];
      if (!arms.length) return [[...base, '—', 'running', '', when(e.startedAt), when(e.finishedAt)]];
      return arms.map((a) => [...base, esc(a.arm.label), pct(a.summary.passAt1), `${pct(a.summary.passAtK)} (k=${esc(String(a.summary.k ?? e.input.k ?? ''))})`, when(e.startedAt), when(e.finishedAt)]);
    }),
  );
  return layout('Evaluations', body);
}

function episodeTable(rows: EpisodeRow[], links: Links): string {
  return table(
    ['task', 'arm', 'seed', 'outcome', 'exit reason', 'turns', 'tokens', 'error', ''],
    rows.map((r) => [
      `<a href="/tasks/${enc(r.taskId)}">${esc(r.taskId)}</a>`,
      esc(r.arm ?? ''),
      String(r.seed ?? ''),
      `<a href="/episodes/${enc(r.episodeId)}">${r.passed ? 'pass' : 'fail'}</a>`,
      esc(r.exitReason),
      String(r.turns),
      String(r.tokens),
      esc((r.error ?? '').slice(0, 160)),
      temporalLink(links, r.workflowId),
    ]),
    (i) => (rows[i]!.passed ? 'pass' : 'fail'),
  ).replace(/<td>(pass|fail)<\/td>/g, '<td class="o">$1</td>');
}

export function evaluationPage(e: EvaluationRow, episodes: EpisodeRow[], live: { episodeId: string; taskId: string; turns: number }[], intervals: Map<string, { p1: Interval; pk: Interval; k: number }>, links: Links): string {
  const cfg = e.input;
  const limits = (cfg.limits ?? {}) as Record<string, unknown>;
  const config = table(
    ['setting', 'value'],
    [
      ['policy', esc(String(cfg.policy))],
      ['compare', esc(String(cfg.compare ?? '—'))],
      ['split / tasks', esc(String(cfg.split ?? (Array.isArray(cfg.taskIds) ? cfg.taskIds.join(', ') : '')))],
      ['episodes per task (n)', esc(String(cfg.episodesPerTask ?? ''))],
      ['k', esc(String(cfg.k ?? ''))],
      ['tool set', esc(String(cfg.toolset ?? ''))],
      ['turn cap', esc(String(limits.maxTurns ?? ''))],
      ['context tokens', esc(String(limits.maxContextTokens ?? ''))],
      ['max new tokens', esc(String(limits.maxNewTokens ?? cfg.maxNewTokens ?? 'server default'))],
    ],
  );
  const arms = (e.arms ?? []).map((a) => {
    const ci = intervals.get(a.arm.label);
    const band = (i?: Interval) => (i && i.low !== null ? ` <span class="note">[${pct(i.low)}, ${pct(i.high)}]</span>` : '');
    return [esc(a.arm.label), String(a.summary.episodes ?? ''), pct(a.summary.passAt1) + band(ci?.p1), pct(a.summary.passAtK) + band(ci?.pk)];
  });
  const report = e.reportDir ? `<p><a href="/evaluations/${enc(e.evaluationId)}/report">the full report</a> (charts, debugger use, failure taxonomy)</p>` : '<p>The report is written when the evaluation finishes.</p>';
  const liveList = live.length ? `<h2>Running now</h2><ul>${live.map((l) => `<li><a href="/episodes/${enc(l.episodeId)}">${esc(l.taskId)}</a>: turn ${l.turns}</li>`).join('')}</ul>` : '';
  return layout(
    `Evaluation ${e.evaluationId}`,
    `<p>${temporalLink(links, e.workflowId)} · started ${when(e.startedAt)} · finished ${when(e.finishedAt)}</p><h2>Configuration</h2>${config}
<h2>Results</h2>${arms.length ? table(['arm', 'episodes', 'pass@1 [95% CI]', `pass@${esc(String(cfg.k ?? 'k'))} [95% CI]`], arms) : '<p>running</p>'}
<p class="note">Intervals: percentile bootstrap over tasks (2,000 resamples). With few tasks or small n they are wide; a difference inside them is noise.</p>
${report}${liveList}<h2>Episodes (${episodes.length})</h2>${episodeTable(episodes, links)}`,
  );
}

export function taskPage(taskId: string, task: { description: string; split: string; debuggerPreference: string; category?: string } | null, calibration: unknown, episodes: EpisodeRow[], links: Links): string {
  const about = task
    ? table(['field', 'value'], [['split', esc(task.split)], ['debugger preference', esc(task.debuggerPreference)], ['category', esc(task.category ?? '')], ['description', esc(task.description)]])
    : '<p class="note">This task is not in the current task folder (only its stored episodes are shown).</p>';
  const cal = calibration ? `<h2>Calibration</h2><pre>${esc(JSON.stringify(calibration, null, 2))}</pre>` : '<p class="note">No calibration recorded for this task.</p>';
  return layout(`Task ${taskId}`, `${about}${cal}<h2>Episodes (${episodes.length})</h2>${episodeTable(episodes, links)}`);
}

/** Mark the harness's truncation notes ("[… truncated …]", "[showing lines …]") so they read as such. */
function observation(text: string): string {
  return esc(text).replace(/\[[^\]\n]*(truncat|dropped|showing lines|killed|more lines)[^\]\n]*\]/gi, (m) => `<span class="trunc">${m}</span>`);
}

function editDiff(args: Record<string, unknown>): string {
  const oldText = typeof args.old_text === 'string' ? args.old_text : '';
  const newText = typeof args.new_text === 'string' ? args.new_text : '';
  const parts = diffLines(oldText, newText);
  const lines = parts.flatMap((p) =>
    p.value
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => (p.added ? `<span class="add">+ ${esc(l)}</span>` : p.removed ? `<span class="del">- ${esc(l)}</span>` : `  ${esc(l)}`)),
  );
  return `<div>edit of <b>${esc(String(args.path ?? ''))}</b>:</div><pre>${lines.join('\n')}</pre>`;
}

export function episodePage(ep: EpisodeView, links: Links): string {
  const s = ep.start;
  const head = table(
    ['field', 'value'],
    [
      ['task', `<a href="/tasks/${enc(s.taskId)}">${esc(s.taskId)}</a> (${esc(s.split)})`],
      ['policy', esc(s.policy)],
      ['tool set', esc(s.toolset)],
      ['evaluation', s.evaluationId ? `<a href="/evaluations/${enc(s.evaluationId)}">${esc(s.evaluationId)}</a> ${esc(s.arm ?? '')}` : '—'],
      ['seed', String(s.seed)],
      ['limits', esc(JSON.stringify(s.limits))],
      ['status', ep.live ? '<span class="mark">running: this page refreshes itself</span>' : ep.outcome?.passed ? '<span class="ok">pass</span>' : '<span class="bad">fail</span>'],
      ['exit reason', esc(ep.outcome?.exitReason ?? '—')],
      ['Temporal', temporalLink(links, ep.workflowId) || '—'],
    ],
  ).replace('<table>', '<table class="kv">');
  const recoveryAt = new Map(ep.recoveries.map((r) => [r.beforeTurn, r]));
  const testsOver: string[][] = [];
  const turns = ep.turns.map(({ turn, assistant, tool }) => {
    const parts: string[] = [];
    const rec = recoveryAt.get(turn);
    if (rec) parts.push(`<p class="mark">sandbox recovery before this turn: ${esc(rec.reason)} (${rec.reappliedCalls} calls re-applied)</p>`);
    const msg = assistant.message.role === 'assistant' ? assistant.message.content : null;
    if (msg) parts.push(`<div class="note">assistant:</div><pre>${esc(msg)}</pre>`);
    const call = assistant.toolCall;
    if (call) {
      const args = (call.arguments ?? {}) as Record<string, unknown>;
      parts.push(call.name === 'edit_file' ? editDiff(args) : `<div>call <b>${esc(call.name)}</b></div><pre>${esc(JSON.stringify(args, null, 1))}</pre>`);
    } else parts.push(`<p class="bad">no valid tool call: ${esc(assistant.invalidReason ?? 'unknown reason')}</p>`);
    if (tool) {
      parts.push(`<div class="${tool.ok ? 'ok' : 'bad'}">observation (${tool.ok ? 'ok' : 'error'}${tool.debugger ? ', debugger' : ''}):</div><pre>${observation(tool.output)}</pre>`);
      const meta = tool.meta;
      const dbg: string[] = [];
      if (typeof meta.state === 'string') dbg.push(`debugger state: ${esc(meta.state)}`);
      if (Array.isArray(meta.breakpointsNeverHit) && meta.breakpointsNeverHit.length) dbg.push(`breakpoints never hit: ${esc(meta.breakpointsNeverHit.join(', '))}`);
      if (meta.debuggerRestarted) dbg.push('debugger restarted on the edited code');
      if (meta.debuggerError) dbg.push('<span class="bad">debugger command error</span>');
      if (dbg.length) parts.push(`<p class="note">${dbg.join(' · ')}</p>`);
      if (meta.tests && typeof meta.tests === 'object') {
        const t = Object.values(meta.tests as Record<string, string>);
        testsOver.push([String(turn), String(t.filter((x) => x === 'passed').length), String(t.filter((x) => x !== 'passed').length)]);
      }
    }
    const tokens = `${assistant.promptTokens} prompt + ${assistant.completionTokens} completion tokens (${esc(assistant.tokenCounting)}), policy v${assistant.policyVersion}`;
    return `<div class="turn" id="turn-${turn}"><h3>turn ${turn} <span class="note">${tokens}</span></h3>${parts.join('')}</div>`;
  });
  const tests = testsOver.length ? `<h2>Tests over the episode</h2>${table(['turn', 'passed', 'not passed'], testsOver)}` : '';
  const grade = ep.grade
    ? `<h2>Grade: ${ep.grade.passed ? '<span class="ok">pass</span>' : '<span class="bad">fail</span>'}</h2>${table(
        ['test', 'result'],
        Object.entries(ep.grade.tests).map(([t, r]) => [esc(t), r === 'passed' ? `<span class="ok">${esc(r)}</span>` : `<span class="bad">${esc(r)}</span>`]),
      )}${ep.grade.notes.length ? `<p class="note">${esc(ep.grade.notes.join('; '))}</p>` : ''}`
    : '';
  const error = ep.outcome?.error ? `<p class="bad">error: ${esc(ep.outcome.error)}</p>` : '';
  const guard = ep.outcome?.exitReason === 'guard' ? '<p class="mark">The episode ended at a guard (a repeated call or replies with no valid call).</p>' : '';
  return layout(`Episode ${ep.episodeId}`, `${head}${error}${guard}<h2>Turns (${ep.turns.length})</h2>${turns.join('')}${tests}${grade}`, { live: ep.live });
}

export function comparePage(
  a: string,
  b: string,
  rows: { taskId: string; a?: { n: number; c: number; medianTurns: number }; b?: { n: number; c: number; medianTurns: number } }[],
  diff: { p1: Interval; pk: Interval; k: number; tasks: number },
): string {
  const rate = (x?: { n: number; c: number }) => (x ? x.c / x.n : null);
  const body = table(
    ['task', `solve rate ${a}`, `solve rate ${b}`, 'Δ', `median turns ${a}`, `median turns ${b}`, 'episodes'],
    rows.map((r) => {
      const ra = rate(r.a);
      const rb = rate(r.b);
      const side = `<a href="/compare/task?a=${enc(a)}&b=${enc(b)}&task=${enc(r.taskId)}">side by side</a>`;
      return [esc(r.taskId), pct(ra), pct(rb), ra !== null && rb !== null ? `${((rb - ra) * 100).toFixed(1)} pp` : '—', fmt(r.a?.medianTurns, 0), fmt(r.b?.medianTurns, 0), side];
    }),
  );
  const ci = (name: string, i: Interval) => `<li>${name}: ${i.estimate === null ? 'n/a' : `${((i.estimate ?? 0) * 100).toFixed(1)} pp`} (95% CI ${i.low === null ? 'n/a' : `${(i.low * 100).toFixed(1)} to ${((i.high ?? 0) * 100).toFixed(1)} pp`})</li>`;
  return layout(
    `Compare ${a} → ${b}`,
    `<p>Differences are <b>${esc(b)}</b> minus <b>${esc(a)}</b>, over the ${diff.tasks} tasks both evaluated (paired bootstrap over tasks).
 An interval that contains 0 means the runs cannot be told apart.</p><ul>${ci('pass@1', diff.p1)}${ci(`pass@${diff.k}`, diff.pk)}</ul>${body}`,
  );
}

/** Three or more evaluations side by side (workers/viewer/compare.ts comparisonTable), the first the reference. */
export function comparisonTablePage(t: { ids: string[]; rows: { metric: string; cells: string[] }[] }): string {
  return layout(
    `Compare ${t.ids.join(' · ')}`,
    `<p>One column per evaluation; intervals are paired bootstrap 95% intervals of pass@1 against <b>${esc(t.ids[0] ?? '')}</b>, over the tasks both evaluated. An interval that contains 0 means the runs cannot be told apart.</p>${table(['metric', ...t.ids], t.rows.map((r) => [esc(r.metric), ...r.cells.map(esc)]))}`,
  );
}

export function compareFormPage(evaluations: EvaluationRow[]): string {
  const options = evaluations.map((e) => `<option value="${esc(e.evaluationId)}">${esc(e.evaluationId)}</option>`).join('');
  return layout(
    'Compare two evaluations',
    `<form action="/compare" method="get"><label>A <select name="a">${options}</select></label> <label>B <select name="b">${options}</select></label> <button type="submit">compare</button></form>`,
  );
}

export function sideBySidePage(taskId: string, a: string, b: string, ea: EpisodeRow[], eb: EpisodeRow[], links: Links): string {
  return layout(`${taskId}: ${a} vs ${b}`, `<div style="display:flex;gap:20px"><div><h2>${esc(a)}</h2>${episodeTable(ea, links)}</div><div><h2>${esc(b)}</h2>${episodeTable(eb, links)}</div></div>`);
}

/** A small line chart with ticks at round values (1, 2 or 5 × 10^k). */
export function lineChart(title: string, xs: number[], ys: (number | null)[]): string {
  const W = 420, H = 200, L = 48, B = 28, T = 24;
  const vals = ys.filter((y): y is number => y !== null);
  if (!vals.length) return `<div class="note">${esc(title)}: no data</div>`;
  const [lo, hi] = niceRange(Math.min(...vals), Math.max(...vals));
  const x0 = Math.min(...xs), x1 = Math.max(...xs, x0 + 1);
  const px = (x: number) => L + ((x - x0) / (x1 - x0)) * (W - L - 10);
  const py = (y: number) => T + (1 - (y - lo) / (hi - lo)) * (H - T - B);
  const ticks = niceTicks(lo, hi);
  const pts = xs.map((x, i) => (ys[i] === null ? null : `${px(x).toFixed(1)},${py(ys[i]!).toFixed(1)}`)).filter(Boolean);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" role="img" aria-label="${esc(title)}"><text x="${W / 2}" y="14" text-anchor="middle" font-size="12" font-weight="bold">${esc(title)}</text>
${ticks.map((t) => `<line x1="${L}" x2="${W - 10}" y1="${py(t)}" y2="${py(t)}" stroke="#eee"/><text x="${L - 4}" y="${py(t) + 4}" text-anchor="end" font-size="10">${+t.toPrecision(6)}</text>`).join('')}
<polyline fill="none" stroke="#4269d0" stroke-width="2" points="${pts.join(' ')}"/>${xs.map((x, i) => (ys[i] === null ? '' : `<circle cx="${px(x)}" cy="${py(ys[i]!)}" r="3" fill="#4269d0"><title>step ${x}: ${ys[i]}</title></circle>`)).join('')}
<text x="${W / 2}" y="${H - 6}" text-anchor="middle" font-size="10">step</text></svg>`;
}

export function trainingRunsPage(runs: TrainingRunRow[]): string {
  if (!runs.length) return layout('Training runs', '<p>No training runs yet. Start one with <code>npx debugrl train</code>.</p>');
  return layout('Training runs', table(['run', 'steps', 'created'], runs.map((r) => [`<a href="/training/${enc(r.runId)}">${esc(r.runId)}</a>`, String(r.steps), when(r.createdAt)])));
}

export function trainingRunPage(data: { run: { runId: string; workflowId: string; input: unknown }; points: { step: number; point: Record<string, unknown> }[]; groups: { groupId: string; taskId: string; step: string | null; episodes: { episodeId: string; reward: number; passed: boolean; completionTokens: number | null }[]; rejectedReason: string | null }[] }, links: Links): string {
  const xs = data.points.map((p) => p.step);
  const series = (key: string) => data.points.map((p) => (typeof p.point[key] === 'number' ? (p.point[key] as number) : null));
  const charts = [
    ['mean reward', 'meanReward'],
    ['pass rate', 'passRate'],
    ['KL', 'klMean'],
    ['clip fraction (high)', 'clipHigh'],
    ['stale groups dropped', 'staleGroups'],
    ['validation pass@1', 'validationPass1'],
  ].map(([t, k]) => lineChart(t!, xs, series(k!)));
  const groups = data.groups.map((g) => {
    // An episode row not found (none expected) leaves the length weight unknown: show the centred reward and say so.
    const lengthsKnown = g.episodes.every((e) => e.completionTokens !== null);
    const adv = learnerAdvantages(g.episodes.map((e) => ({ reward: e.reward, completionTokens: e.completionTokens ?? 1 })));
    const shown = lengthsKnown ? adv.advantages : adv.centred;
    const eps = g.episodes.map((e, i) => `<a href="/episodes/${enc(e.episodeId)}">${e.reward.toFixed(2)} (adv ${shown[i]!.toFixed(3)}${lengthsKnown ? `, ${e.completionTokens} tok` : ''})${e.passed ? ' ✓' : ''}</a>`).join(' ');
    const signal = adv.zeroSignal ? 'none: rewards equal' : lengthsKnown ? 'yes' : 'yes (length weight unknown)';
    return [esc(g.step ?? 'queued'), esc(g.taskId), signal, eps, esc(g.rejectedReason ?? '')];
  });
  return layout(
    `Training run ${data.run.runId}`,
    `<p>${temporalLink(links, data.run.workflowId)}</p><pre>${esc(JSON.stringify(data.run.input, null, 1))}</pre><div style="display:flex;flex-wrap:wrap;gap:10px">${charts.join('')}</div>
<h2>Groups</h2><p class="note">The advantage the learner trains on: (reward − group mean) × length weight, where the weight is L<sup>−${LENGTH_WEIGHT_POWER}</sup> / the group's mean of L<sup>−${LENGTH_WEIGHT_POWER}</sup> over each episode's generated tokens L (Dr. GRPO: no division by the group's spread). A group whose rewards are all equal has no signal: every advantage is 0. The learner leaves out stale and over-long episodes.</p>${table(['step', 'task', 'signal', 'episodes: reward (advantage, tokens)', 'rejected'], groups)}`,
  );
}
