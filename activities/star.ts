/**
 * STaR loop activities: one generation's corpus build (the `sft build` code, merged into the running corpus) and the
 * loop's report. Temporal carries ids, paths and counts; corpora stay on disk and metrics are read from PostgreSQL.
 *
 *   <data>/star/<loop>/g<N>/        the running corpus after generation N (its examples.jsonl keeps every example's
 *                                   source policy, generation and task, so generations mix on purpose)
 *   reports/<loop>/star.json|md|html  per generation: corpus size per source, rejection histogram, validation pass@1
 *                                   and debugger use, and whether the adapter was kept
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import type { Pool } from 'pg';
import { z } from 'zod';
import { parseInput } from '../common/boundary';
import type { Config } from '../common/config';
import { Failure } from '../common/failures';
import type { ArmSummary } from '../common/metrics';
import type { StarBaseline, StarCorpus, StarGeneration, StarStop } from '../common/star';
import { BuildInput, buildSftCorpus, EmptyCorpusError, SftInputError } from './sft';
import { REPORTS_DIR } from './evaluation';
import { esc } from './report/svg';
import { lineChart } from './training-report';

export const STAR_REPORT_SCHEMA = 'debugrl.star-report/v1';

const LoopId = z.string().regex(/^[\w.-]{1,100}$/);

export const StarCorpusInput = z
  .object({
    loopId: LoopId,
    generation: z.number().int().min(0),
    evaluationId: z.string().min(1),
    /** The running corpus so far (the previous generation's folder); null in the first generation. */
    mergeFrom: z.string().min(1).nullable(),
    build: BuildInput.pick({ perTaskCap: true, heldOutFraction: true, microskills: true, filters: true }),
  })
  .strict();
export type StarCorpusInput = z.input<typeof StarCorpusInput>;

interface Manifest {
  examples: number;
  candidates: number;
  bySource: Record<string, number>;
  rejections: Record<string, number>;
  input: { evaluationIds: string[] };
}

const countOf = (m: { examples: number }, earlier: number) => Math.max(0, m.examples - earlier);

function examplesIn(dir: string | null): number {
  if (!dir) return 0;
  const m = path.join(dir, 'manifest.json');
  return fs.existsSync(m) ? (JSON.parse(fs.readFileSync(m, 'utf8')) as Manifest).examples : 0;
}

export interface StarReportGeneration extends StarGeneration {
  validation: ArmSummary['debugger'] & { episodes: number; passAtK: number | null; medianTurns: number | null; failures: Record<string, number> } | null;
}

export interface StarReport {
  schema: typeof STAR_REPORT_SCHEMA;
  loopId: string;
  generatedAt: string;
  baseline: StarBaseline & { validation: StarReportGeneration['validation'] };
  generations: StarReportGeneration[];
  best: { policy: string; adapter: string | null; validationPassAt1: number | null };
  stopped: StarStop | null;
}

const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${(100 * v).toFixed(1)}%`);
const num = (v: number | null | undefined, digits = 2) => (v === null || v === undefined ? '—' : v.toFixed(digits));

export function renderStarMarkdown(r: StarReport): string {
  const v = (g: { validation: StarReportGeneration['validation'] }) => g.validation;
  const lines = [
    `# STaR loop ${r.loopId}`,
    '',
    `Generated ${r.generatedAt}. Baseline ${r.baseline.policy}: validation pass@1 ${pct(r.baseline.passAt1)} (${r.baseline.evaluationId}).`,
    `Best: ${r.best.policy}, validation pass@1 ${pct(r.best.validationPassAt1)}. Stopped: ${r.stopped ?? 'running'}.`,
    '',
    '## Generations',
    '',
    '| generation | train policy | train pass@1 | corpus examples | added | adapter | held-out loss | validation pass@1 | best before | kept |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...r.generations.map(
      (g) =>
        `| ${g.generation} | ${g.trainPolicy} | ${pct(g.trainPassAt1)} | ${g.corpus?.examples ?? 0} | ${g.corpus?.added ?? 0} | ${g.sft?.adapter ?? '—'} | ${num(g.sft?.heldOutLoss, 4)} | ${pct(g.validationPassAt1)} | ${pct(g.bestBefore)} | ${g.kept ? 'yes' : 'no'} |`,
    ),
    '',
    '## Debugger use on validation',
    '',
    '| policy | episodes | opened debugger | calls / episode | inspection → edit | breakpoints never hit | command errors | median turns |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...[{ label: `baseline ${r.baseline.policy}`, x: v(r.baseline) }, ...r.generations.map((g) => ({ label: `generation ${g.generation} ${g.sft?.adapter ?? ''}`.trim(), x: v(g) }))].map(({ label, x }) =>
      x
        ? `| ${label} | ${x.episodes} | ${pct(x.shareOpened)} | ${num(x.callsPerEpisode)} | ${pct(x.inspectionToEdit)} | ${x.breakpointsNeverHit} | ${x.commandErrors} | ${num(x.medianTurns, 1)} |`
        : `| ${label} | — | — | — | — | — | — | — |`,
    ),
    '',
  ];
  for (const g of r.generations) {
    lines.push(`## Generation ${g.generation} corpus`, '');
    if (!g.corpus) {
      lines.push('No corpus (the generation stopped before the build).', '');
      continue;
    }
    lines.push(`${g.corpus.examples} examples in the running corpus (${g.corpus.added} new) from ${g.corpus.candidates} episodes of ${g.trainEvaluationId}.`, '');
    lines.push('| source | examples |', '| --- | --- |', ...Object.entries(g.corpus.bySource).map(([s, n]) => `| ${s} | ${n} |`), '');
    const rej = Object.entries(g.corpus.rejections).filter(([, n]) => n);
    lines.push('| rejection reason | trajectories |', '| --- | --- |', ...(rej.length ? rej.map(([s, n]) => `| ${s} | ${n} |`) : ['| (none) | 0 |']), '');
  }
  return lines.join('\n');
}

export function renderStarHtml(r: StarReport): string {
  const gens = r.generations.map((g) => g.generation);
  const charts = [
    lineChart('Validation pass@1 per generation', gens, [
      { name: 'new adapter', values: r.generations.map((g) => g.validationPassAt1) },
      { name: 'best before', values: r.generations.map((g) => g.bestBefore) },
    ]),
    lineChart('Running corpus size', gens, [{ name: 'examples', values: r.generations.map((g) => g.corpus?.examples ?? null) }]),
    lineChart('Debugger use on validation', gens, [
      { name: 'opened', values: r.generations.map((g) => g.validation?.shareOpened ?? null) },
      { name: 'inspection → edit', values: r.generations.map((g) => g.validation?.inspectionToEdit ?? null) },
    ]),
  ];
  const md = renderStarMarkdown(r);
  return `<!doctype html><html><head><meta charset="utf-8"><title>STaR ${esc(r.loopId)}</title>
<style>body{font-family:system-ui,sans-serif;margin:24px;max-width:1000px}svg{margin:6px}pre{white-space:pre-wrap}</style></head><body>
<h1>STaR loop ${esc(r.loopId)}</h1><div>${charts.join('')}</div><pre>${esc(md)}</pre></body></html>`;
}

export const StarReportInput = z
  .object({
    loopId: LoopId,
    baseline: z.object({ policy: z.string(), evaluationId: z.string(), passAt1: z.number().nullable() }),
    generations: z.array(z.custom<StarGeneration>((g) => typeof g === 'object' && g !== null && 'generation' in g)),
    best: z.object({ policy: z.string(), adapter: z.string().nullable(), validationPassAt1: z.number().nullable() }).passthrough(),
    stopped: z.enum(['generations', 'no-improvement', 'empty-corpus']).nullable(),
  })
  .strict();
export type StarReportInput = z.input<typeof StarReportInput>;

export function createStarActivities(deps: { pool: Pool; config: Config }) {
  /** The validation arm's summary as aggregateEvaluation stored it (per-task rows left out). */
  async function validationOf(evaluationId: string | null): Promise<StarReportGeneration['validation']> {
    if (!evaluationId) return null;
    const r = await deps.pool.query<{ summary: { summary: ArmSummary }[] | null }>('select summary from evaluations where evaluation_id = $1', [evaluationId]);
    const s = r.rows[0]?.summary?.[0]?.summary;
    if (!s) return null;
    return { ...s.debugger, episodes: s.episodes, passAtK: s.passAtK, medianTurns: s.turns.median, failures: s.failures };
  }

  return {
    /** Build generation N's corpus from its train evaluation, merged with the running corpus. Idempotent: a retry finds
     * the folder a finished attempt wrote (the build writes it whole or not at all) and returns its counts. When
     * nothing passes the filters the result has no folder and the running corpus stays where it was. */
    async buildStarCorpus(raw: StarCorpusInput): Promise<StarCorpus> {
      const input = parseInput(StarCorpusInput, raw, 'buildStarCorpus');
      const outDir = path.join(deps.config.DEBUGRL_DATA_DIR, 'star', input.loopId, `g${input.generation}`);
      const earlier = examplesIn(input.mergeFrom);
      const manifestFile = path.join(outDir, 'manifest.json');
      if (fs.existsSync(manifestFile)) {
        const m = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
        if (m.input.evaluationIds.join() !== input.evaluationId) throw ApplicationFailure.nonRetryable(`${outDir} holds a corpus built from ${m.input.evaluationIds.join(', ')}, not ${input.evaluationId}`, Failure.InvalidInput);
        return { outDir, examples: m.examples, added: countOf(m, earlier), candidates: m.candidates, bySource: m.bySource, rejections: m.rejections };
      }
      try {
        const s = await buildSftCorpus(deps, {
          evaluationIds: [input.evaluationId],
          outDir,
          generation: input.generation,
          ...(input.mergeFrom ? { mergeFrom: input.mergeFrom } : {}),
          ...input.build,
          replace: false,
        });
        return { outDir, examples: s.examples, added: countOf(s, earlier), candidates: s.candidates, bySource: s.bySource, rejections: s.rejections };
      } catch (e) {
        if (e instanceof EmptyCorpusError) return { outDir: null, examples: 0, added: 0, candidates: e.candidates, bySource: {}, rejections: e.rejections };
        if (e instanceof SftInputError) throw ApplicationFailure.nonRetryable(e.message, Failure.InvalidInput);
        throw e;
      }
    },

    /** Write reports/<loop>/star.{json,md,html}; rewritten after every generation, each file replaced whole. */
    async writeStarReport(raw: StarReportInput): Promise<{ json: string; markdown: string; html: string }> {
      const input = parseInput(StarReportInput, raw, 'writeStarReport');
      const report: StarReport = {
        schema: STAR_REPORT_SCHEMA,
        loopId: input.loopId,
        generatedAt: new Date().toISOString(),
        baseline: { ...input.baseline, validation: await validationOf(input.baseline.evaluationId) },
        generations: await Promise.all(input.generations.map(async (g) => ({ ...g, validation: await validationOf(g.validationEvaluationId) }))),
        best: { policy: input.best.policy, adapter: input.best.adapter, validationPassAt1: input.best.validationPassAt1 },
        stopped: input.stopped,
      };
      const dir = path.join(REPORTS_DIR, input.loopId);
      fs.mkdirSync(dir, { recursive: true });
      const files = { json: path.join(dir, 'star.json'), markdown: path.join(dir, 'star.md'), html: path.join(dir, 'star.html') };
      const write = (file: string, text: string) => {
        fs.writeFileSync(`${file}.tmp`, text);
        fs.renameSync(`${file}.tmp`, file);
      };
      write(files.json, JSON.stringify(report, null, 2));
      write(files.markdown, renderStarMarkdown(report));
      write(files.html, renderStarHtml(report));
      return files;
    },
  };
}

export type StarActivities = ReturnType<typeof createStarActivities>;
