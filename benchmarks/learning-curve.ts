/**
 * The learning curve (issue 23, "Prove it"): two training runs from the same SFT init, the RL arm and its control (the
 * same run with learning rate 0), side by side per step, then the evaluations before and after with paired bootstrap
 * intervals, and the three-way table (base, SFT, RL). Writes `<out>.md` (tables) and `<out>.svg` (the per-step curves).
 *
 *   npx tsc -p . && node lib/benchmarks/learning-curve.js --rl <run> --sft <eval> --rl-eval <eval> \
 *     [--control <run> --control-eval <eval>] [--base <eval>] \
 *     [--val-sft <eval> --val-rl <eval>] [--out benchmarks/learning-curve]
 *
 * Per step it reads each run's training report (reports/<run>/training.json, rewritten after every step); the
 * evaluations come from PostgreSQL through the same code as `debugrl compare` (workers/viewer/compare.ts), so each
 * interval here is the one the viewer shows. It checks the bar and prints whether each part holds; it never decides
 * the numbers.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'pg';
import { lineChart, type TrainingReport } from '../activities/training-report';
import { loadConfig, REPO_ROOT } from '../common/config';
import type { StepPoint } from '../common/training';
import { compareEvaluations, compareMany, comparisonLine, tableMarkdown, type Comparison } from '../workers/viewer/compare';

const { values: o } = parseArgs({
  options: {
    rl: { type: 'string' },
    control: { type: 'string' },
    base: { type: 'string' },
    sft: { type: 'string' },
    'rl-eval': { type: 'string' },
    'control-eval': { type: 'string' },
    'val-sft': { type: 'string' },
    'val-rl': { type: 'string' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'benchmarks', 'learning-curve') },
  },
});

function need(name: keyof typeof o): string {
  const v = o[name];
  if (typeof v !== 'string' || !v) {
    console.error(`learning-curve: --${name} is required`);
    process.exit(2);
  }
  return v;
}

function readReport(runId: string): TrainingReport {
  const file = path.join(REPO_ROOT, 'reports', runId, 'training.json');
  if (!fs.existsSync(file)) {
    console.error(`learning-curve: no training report for run ${runId} (${file}); has it committed a step?`);
    process.exit(2);
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as TrainingReport;
}

const f = (v: number | null | undefined, d = 3) => (v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(d));
const pct = (v: number | null | undefined) => (v === null || v === undefined ? '–' : `${(100 * v).toFixed(1)} %`);
const zeroShare = (p: StepPoint) => {
  const groups = p.trained + (p.zeroSignalDropped ?? 0);
  return groups ? ((p.zeroSignalDropped ?? 0) + (p.zeroSignalTrained ?? 0)) / groups : null;
};

function stepTable(label: string, r: TrainingReport): string[] {
  const rows = [
    `### ${label}: run \`${r.runId}\``,
    '',
    '| step | version | mean reward | success rate | zero-signal groups | KL | clip low / high | ratio mean | BC loss | lag-0 mean abs log ρ |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const p of r.points) {
    rows.push(
      `| ${p.step} | ${p.version} | ${f(p.meanReward)} | ${pct(p.passRate)} | ${pct(zeroShare(p))} (${(p.zeroSignalDropped ?? 0) + (p.zeroSignalTrained ?? 0)} of ${p.trained + (p.zeroSignalDropped ?? 0)}) | ${f(p.klMean, 5)} | ${f(p.clipLow)} / ${f(p.clipHigh)} | ${f(p.ratioMean, 4)} | ${f(p.bcLoss)} | ${f(p.lag0MeanAbsLogRatio, 5)} |`,
    );
  }
  return rows;
}

const ciText = (c: Comparison) => {
  const d = c.diff.p1;
  return d.estimate === null ? 'n/a' : `${(100 * d.estimate).toFixed(1)} pp [${(100 * d.low!).toFixed(1)}, ${(100 * d.high!).toFixed(1)}]`;
};

async function main(): Promise<void> {
  const rl = readReport(need('rl'));
  // The control arm and the base evaluation may be missing from a partial run: their rows then say "not run".
  const control = o.control ? readReport(o.control) : null;
  const [sft, rlEval] = [need('sft'), need('rl-eval')];
  const base = o.base ?? null;
  const controlEval = o['control-eval'] ?? null;
  const pool = new Pool({ connectionString: loadConfig().DEBUGRL_DATABASE_URL, max: 2 });
  try {
    const rlVsSft = await compareEvaluations(pool, sft, rlEval);
    const controlVsSft = controlEval ? await compareEvaluations(pool, sft, controlEval) : null;
    const sftVsBase = base ? await compareEvaluations(pool, base, sft) : null;
    const table = await compareMany(pool, [base, sft, rlEval, controlEval].filter((x): x is string => !!x));
    const val = o['val-sft'] && o['val-rl'] ? await compareEvaluations(pool, o['val-sft'], o['val-rl']) : null;

    const d = rlVsSft.diff.p1;
    const bar = [
      ['RL arm: train pass@1 over its SFT init ≥ +10 pp, CI above 0', d.estimate !== null && d.estimate >= 0.1 && d.low! > 0, ciText(rlVsSft)],
      ['control arm (lr 0): CI includes 0', !!controlVsSft && controlVsSft.diff.p1.low !== null && controlVsSft.diff.p1.low <= 0 && controlVsSft.diff.p1.high! >= 0, controlVsSft ? ciText(controlVsSft) : 'not run'],
      ['SFT beats base on these tasks', !!sftVsBase && sftVsBase.diff.p1.estimate !== null && sftVsBase.diff.p1.estimate > 0, sftVsBase ? ciText(sftVsBase) : 'not run'],
    ] as const;

    const md = [
      '## Per step',
      '',
      ...stepTable('RL arm', rl),
      '',
      ...(control ? stepTable('Control arm (learning rate 0)', control) : ['### Control arm (learning rate 0): not run']),
      '',
      '## Before and after (fresh evaluation seeds, paired by task and seed)',
      '',
      '| comparison | pass@1, paired bootstrap 95 % CI over tasks |',
      '| --- | --- |',
      `| RL (\`${rlEval}\`) against its SFT init (\`${sft}\`) | ${comparisonLine(rlVsSft)} |`,
      `| control (\`${controlEval ?? 'not run'}\`) against the SFT init | ${controlVsSft ? comparisonLine(controlVsSft) : 'not run'} |`,
      `| SFT against base (\`${base ?? 'not run'}\`) | ${sftVsBase ? comparisonLine(sftVsBase) : 'not run'} |`,
      ...(val ? [`| validation: RL (\`${o['val-rl']}\`) against SFT (\`${o['val-sft']}\`) | ${comparisonLine(val)} |`] : []),
      '',
      '## The bar',
      '',
      '| part | held | measured |',
      '| --- | --- | --- |',
      ...bar.map(([what, held, got]) => `| ${what} | ${held ? 'yes' : '**no**'} | ${got} |`),
      '',
      '## Base, SFT, RL and the control side by side',
      '',
      tableMarkdown(table),
      '',
    ].join('\n');
    fs.writeFileSync(`${o.out}.md`, md);

    const steps = rl.points.map((p) => p.step);
    const byStep = (r: TrainingReport | null, pick: (p: StepPoint) => number | null | undefined) =>
      steps.map((s) => {
        const p = r?.points.find((q) => q.step === s);
        return p ? pick(p) ?? null : null;
      });
    const charts = [
      lineChart('mean reward of the trained groups', steps, [
        { name: 'RL', values: byStep(rl, (p) => p.meanReward) },
        { name: 'control (lr 0)', values: byStep(control, (p) => p.meanReward) },
      ]),
      lineChart('success rate of the trained groups', steps, [
        { name: 'RL', values: byStep(rl, (p) => p.passRate) },
        { name: 'control (lr 0)', values: byStep(control, (p) => p.passRate) },
      ]),
      lineChart('KL to the SFT reference', steps, [
        { name: 'RL', values: byStep(rl, (p) => p.klMean) },
        { name: 'control (lr 0)', values: byStep(control, (p) => p.klMean) },
      ]),
      lineChart('BC loss (replayed SFT tokens)', steps, [
        { name: 'RL', values: byStep(rl, (p) => p.bcLoss) },
        { name: 'control (lr 0)', values: byStep(control, (p) => p.bcLoss) },
      ]),
    ];
    const W = 420, H = 220;
    const svg = [`<svg xmlns="http://www.w3.org/2000/svg" width="${2 * W}" height="${2 * H}">`, ...charts.map((c, i) => `<g transform="translate(${(i % 2) * W},${Math.floor(i / 2) * H})">${c}</g>`), '</svg>'].join('');
    fs.writeFileSync(`${o.out}.svg`, svg);
    console.log(md);
    console.log(`wrote ${o.out}.md and ${o.out}.svg`);
    for (const [what, held] of bar) console.log(`${held ? 'held' : 'NOT held'}: ${what}`);
  } finally {
    await pool.end();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
