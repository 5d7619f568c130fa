/**
 * The SFT corpus: a folder built from stored trajectories (PostgreSQL `episodes.record`, the source of truth). Training
 * on it is the learner wing's (activities/learner/sft-epoch.ts).
 *
 * A corpus folder, written whole or not at all (built in a temporary sibling, renamed at the end):
 *   manifest.json                 schema, counts per source and kind, the filters used, the build's inputs
 *   report.json / report.md       rejection histogram per reason and per task, what was kept, capped, deduplicated
 *   examples.jsonl                every example with its provenance (re-read by a later build to merge generations)
 *   tools.json                    the tool schemas the conversations were run with
 *   train.chat.jsonl, heldout.chat.jsonl      TRL's conversational format with tools (SFTTrainer reads it)
 *   train.tokens.jsonl, heldout.tokens.jsonl  token ids + assistant masks (learner/sft.py), stored ids reused
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { Config } from '../common/config';
import { REPO_ROOT } from '../common/config';
import {
  chatRow,
  CorpusExample,
  heldOutIds,
  microskillExamples,
  SFT_CORPUS_SCHEMA,
  selectTrajectories,
  trajectoryExample,
  type Selection,
} from '../common/sft-corpus';
import { SftFilterConfig, stepsOf } from '../common/sft-filters';
import { TrajectoryRecord } from '../common/trajectory';
import { toolSpecs } from '../harness/tools';

const run = promisify(execFile);

export const BuildInput = z
  .object({
    evaluationIds: z.array(z.string().min(1)).min(1),
    outDir: z.string().min(1),
    /** Most trajectories kept per task, after the shortest/longest interleaving. */
    perTaskCap: z.number().int().min(1).default(4),
    /** The STaR generation this build belongs to (recorded in every new example's provenance). */
    generation: z.number().int().min(0).default(0),
    /** A corpus folder whose examples are merged in (earlier generations), keeping their provenance. */
    mergeFrom: z.string().min(1).optional(),
    /** The seed held out 35 of 347 trajectories (10 %) for eval loss. */
    heldOutFraction: z.number().min(0).max(0.5).default(0.1),
    microskills: z.boolean().default(true),
    filters: SftFilterConfig.default(SftFilterConfig.parse({})),
    /** Replace an existing folder at outDir (default: refuse). */
    replace: z.boolean().default(false),
  })
  .strict();
export type BuildInput = z.input<typeof BuildInput>;

export interface BuildSummary {
  outDir: string;
  examples: number;
  train: number;
  heldOut: number;
  trajectories: number;
  microskills: number;
  candidates: number;
  bySource: Record<string, number>;
  rejections: Record<string, number>;
}

/** A mistake in the build's input: clear, and not worth retrying. */
export class SftInputError extends Error {}

/** Nothing passed the filters: the STaR loop records it as a generation with no corpus rather than failing. */
export class EmptyCorpusError extends SftInputError {
  constructor(message: string, readonly candidates: number, readonly rejections: Record<string, number>) {
    super(message);
  }
}

async function loadRecords(pool: Pool, evaluationIds: string[]): Promise<TrajectoryRecord[]> {
  const known = await pool.query<{ evaluation_id: string }>('select evaluation_id from evaluations where evaluation_id = any($1)', [evaluationIds]);
  const missing = evaluationIds.filter((id) => !known.rows.some((r) => r.evaluation_id === id));
  if (missing.length) throw new SftInputError(`no evaluation ${missing.map((m) => `"${m}"`).join(', ')} in PostgreSQL (see \`select evaluation_id from evaluations\`)`);
  const rows = await pool.query<{ record: unknown }>('select record from episodes where evaluation_id = any($1) order by episode_id', [evaluationIds]);
  return rows.rows.map((r, i) => {
    const parsed = TrajectoryRecord.safeParse(r.record);
    if (!parsed.success) throw new SftInputError(`episode record ${i} of ${evaluationIds.join(', ')} is not a trajectory record: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  });
}

function readCorpusExamples(dir: string): CorpusExample[] {
  const file = path.join(dir, 'examples.jsonl');
  if (!fs.existsSync(file)) throw new SftInputError(`${dir} is not a corpus folder (no examples.jsonl)`);
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      const p = CorpusExample.safeParse(JSON.parse(l));
      if (!p.success) throw new SftInputError(`${file} line ${i + 1}: ${z.prettifyError(p.error)}`);
      return p.data;
    });
}

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');

function reportMarkdown(s: Selection, summary: Omit<BuildSummary, 'outDir'>): string {
  const lines = [
    `# SFT corpus`,
    '',
    `${summary.examples} examples (${summary.trajectories} trajectories, ${summary.microskills} microskills); ${summary.train} train, ${summary.heldOut} held out.`,
    `${summary.candidates} candidate episodes: ${s.failed} failed their tests, ${Object.values(s.byTask).reduce((a, t) => a + t.rejected, 0)} rejected by a filter, ${s.duplicates} duplicates, ${s.capped} over the per-task cap.`,
    '',
    '## Rejections per reason',
    '',
    '| reason | trajectories |',
    '| --- | --- |',
    ...Object.entries(s.byReason).map(([r, n]) => `| ${r} | ${n} |`),
    '',
    '## Per task',
    '',
    '| task | candidates | failed | rejected | duplicates | capped | kept |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...Object.entries(s.byTask)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([t, c]) => `| ${t} | ${c.candidates} | ${c.failed} | ${c.rejected} | ${c.duplicates} | ${c.capped} | ${c.kept} |`),
    '',
    '## Examples per source',
    '',
    ...Object.entries(summary.bySource).map(([k, n]) => `- ${k}: ${n}`),
    '',
  ];
  return lines.join('\n');
}

/** Build a corpus folder. Everything is checked and tokenized in a temporary folder next to `outDir`, which is renamed
 * into place only at the end: a failure at any point leaves no folder (or the old one) at `outDir`. */
export async function buildSftCorpus(deps: { pool: Pool; config: Config }, raw: BuildInput): Promise<BuildSummary> {
  const parsed = BuildInput.safeParse(raw);
  if (!parsed.success) throw new SftInputError(`invalid sft build input: ${z.prettifyError(parsed.error)}`);
  const input = parsed.data;
  const outDir = path.resolve(input.outDir);
  if (fs.existsSync(outDir) && !input.replace) throw new SftInputError(`${outDir} already exists (choose another --out, or --replace)`);

  const records = await loadRecords(deps.pool, input.evaluationIds);
  const sel = selectTrajectories(records, input.filters, input.perTaskCap);
  const held = heldOutIds(sel.kept.map((r) => r.episodeId), input.heldOutFraction);
  const fresh: CorpusExample[] = sel.kept.flatMap((r) => {
    const isHeld = held.has(r.episodeId);
    return [trajectoryExample(r, input.generation, isHeld), ...(input.microskills ? microskillExamples(r, stepsOf(r), input.generation, isHeld) : [])];
  });
  const earlier = input.mergeFrom ? readCorpusExamples(input.mergeFrom) : [];
  const ids = new Set(earlier.map((e) => e.exampleId));
  const examples = [...earlier, ...fresh.filter((e) => !ids.has(e.exampleId))];
  if (!examples.length) {
    const why = Object.entries(sel.byReason).filter(([, n]) => n).map(([r, n]) => `${r} ${n}`).join(', ');
    throw new EmptyCorpusError(
      `empty corpus: ${records.length} episode(s) in ${input.evaluationIds.join(', ')}, ${sel.failed} failed their tests${why ? `, rejected: ${why}` : ''}; nothing was written`,
      records.length,
      sel.byReason,
    );
  }

  const bySource: Record<string, number> = {};
  for (const e of examples) bySource[`${e.provenance.policy} (generation ${e.provenance.generation}, ${e.kind})`] = (bySource[`${e.provenance.policy} (generation ${e.provenance.generation}, ${e.kind})`] ?? 0) + 1;
  const summary: Omit<BuildSummary, 'outDir'> = {
    examples: examples.length,
    train: examples.filter((e) => !e.heldOut).length,
    heldOut: examples.filter((e) => e.heldOut).length,
    trajectories: examples.filter((e) => e.kind === 'trajectory').length,
    microskills: examples.filter((e) => e.kind === 'microskill').length,
    candidates: records.length,
    bySource,
    rejections: sel.byReason,
  };
  const toolset = records[0]?.toolset ?? 'full';
  const tools = toolSpecs(toolset);

  fs.mkdirSync(path.dirname(outDir), { recursive: true });
  const tmp = `${outDir}.tmp-${randomBytes(4).toString('hex')}`;
  fs.mkdirSync(tmp);
  try {
    fs.writeFileSync(path.join(tmp, 'tools.json'), JSON.stringify(tools, null, 1));
    fs.writeFileSync(path.join(tmp, 'examples.jsonl'), jsonl(examples));
    fs.writeFileSync(path.join(tmp, 'train.chat.jsonl'), jsonl(examples.filter((e) => !e.heldOut).map((e) => chatRow(e, tools))));
    fs.writeFileSync(path.join(tmp, 'heldout.chat.jsonl'), jsonl(examples.filter((e) => e.heldOut).map((e) => chatRow(e, tools))));
    const report = { ...summary, failed: sel.failed, duplicates: sel.duplicates, capped: sel.capped, byTask: sel.byTask };
    fs.writeFileSync(path.join(tmp, 'report.json'), JSON.stringify(report, null, 2));
    fs.writeFileSync(path.join(tmp, 'report.md'), reportMarkdown(sel, summary));
    let tokenized: unknown;
    try {
      const { stdout } = await run(deps.config.DEBUGRL_PYTHON, ['-m', 'debugrl_native.learner.sft', 'tokenize', '--corpus', tmp], { cwd: path.join(REPO_ROOT, 'native'), maxBuffer: 16 << 20 });
      tokenized = JSON.parse(stdout.trim().split('\n').at(-1)!);
    } catch (e) {
      const err = e as { stderr?: string; message: string };
      throw new SftInputError(`tokenizing the corpus failed: ${(err.stderr ?? err.message).trim().split('\n').at(-1)}`);
    }
    const manifest = {
      schema: SFT_CORPUS_SCHEMA,
      builtAt: new Date().toISOString(),
      input: { ...input, outDir },
      tokenizer: 'SmolLM2-135M-Instruct chat template (native/debugrl_native/learner/sft.py); stored token ids reused',
      tokenized,
      ...summary,
    };
    fs.writeFileSync(path.join(tmp, 'manifest.json'), JSON.stringify(manifest, null, 2));
    if (fs.existsSync(outDir)) {
      const old = `${outDir}.old-${randomBytes(4).toString('hex')}`;
      fs.renameSync(outDir, old);
      fs.renameSync(tmp, outDir);
      fs.rmSync(old, { recursive: true, force: true });
    } else fs.renameSync(tmp, outDir);
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  return { outDir, ...summary };
}
