/**
 * SFT activities: build a corpus folder from stored trajectories (PostgreSQL `episodes.record`, the source of truth),
 * and train on it with the learner service.
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
import { heartbeat } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Pool } from 'pg';
import { z } from 'zod';
import { parseInput } from '../common/boundary';
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
import { LearnerProcess, LearnerServiceError } from './learner';

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

// ----- training ------------------------------------------------------------------------------------------------------

export const SftEpochInput = z
  .object({
    runId: z.string().regex(/^[\w.-]{1,100}$/),
    corpusDir: z.string().min(1),
    epoch: z.number().int().min(1),
    epochs: z.number().int().min(1),
    /** Peak learning rate; linear warm-up over the first `warmupSteps`, then cosine decay to 0 at the last step. */
    lr: z.number().positive().max(1),
    warmupSteps: z.number().int().min(0).default(2),
    /** Examples per optimizer step (each step packs them into microbatches of at most 16,384 tokens). */
    batchExamples: z.number().int().min(1).default(8),
    loraRank: z.number().int().min(1).max(256).default(16),
    /** Epoch 1 starts from this adapter's weights (a name under <data>/adapters, or a folder) with a fresh optimizer;
     * null: from the base model. */
    initAdapter: z.string().min(1).nullable().default(null),
  })
  .strict();
export type SftEpochInput = z.input<typeof SftEpochInput>;

export interface SftEpochResult {
  epoch: number;
  steps: number;
  trainLoss: number;
  heldOutLoss: number | null;
  adapterPath: string;
}

/** The learning rate at `step` of `total` (0-based): linear warm-up, then cosine decay. Pure. */
export function lrAt(step: number, total: number, peak: number, warmup: number): number {
  if (step < warmup) return (peak * (step + 1)) / (warmup + 1);
  const t = total - warmup <= 1 ? 0 : (step - warmup) / (total - warmup - 1);
  return Math.max(peak * 0.5 * (1 + Math.cos(Math.PI * t)), peak * 0.01);
}

function readTokens(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()) : [];
}

/** A deterministic shuffle per epoch (so a retried epoch trains the same batches). */
function shuffled<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  let a = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    a = (Math.imul(a ^ (a >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    const j = a % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function createSftTrainActivities(deps: { config: Config }) {
  const runDir = (runId: string) => path.join(deps.config.DEBUGRL_DATA_DIR, 'sft', runId);
  /** The initial adapter's weights copied into the run's folder as `init/`, without its optimizer state
   * (service.py restores trainer_state.pt when the folder has one): a new fine-tune, not a resumed one. */
  const initFrom = (dir: string, adapter: string): string => {
    const src = path.isAbsolute(adapter) ? adapter : path.join(deps.config.DEBUGRL_DATA_DIR, 'adapters', adapter);
    if (!fs.existsSync(src)) throw ApplicationFailure.nonRetryable(`initAdapter ${adapter}: no adapter folder at ${src}`, 'InvalidInput');
    const init = path.join(dir, 'init');
    if (!fs.existsSync(init)) {
      fs.cpSync(src, `${init}.tmp`, { recursive: true, filter: (f) => path.basename(f) !== 'trainer_state.pt' });
      fs.renameSync(`${init}.tmp`, init);
    }
    return init;
  };
  return {
    /** One epoch on the learner service, resumable: a finished epoch's result is on disk and is returned as it is; an
     * unfinished one starts again from the previous epoch's adapter and optimizer state. */
    async sftEpoch(raw: SftEpochInput): Promise<SftEpochResult> {
      const input = parseInput(SftEpochInput, raw, 'sftEpoch');
      const dir = runDir(input.runId);
      const doneFile = path.join(dir, `epoch-${input.epoch}.json`);
      if (fs.existsSync(doneFile)) return JSON.parse(fs.readFileSync(doneFile, 'utf8')) as SftEpochResult;
      const train = readTokens(path.join(input.corpusDir, 'train.tokens.jsonl'));
      if (!train.length) throw ApplicationFailure.nonRetryable(`${input.corpusDir}: no train.tokens.jsonl examples (an empty corpus, or not a corpus folder)`, 'InvalidInput');
      const heldOutFile = path.join(input.corpusDir, 'heldout.tokens.jsonl');
      fs.mkdirSync(dir, { recursive: true });
      const cfgFile = path.join(dir, 'learner.json');
      fs.writeFileSync(
        cfgFile,
        JSON.stringify({
          model: { kind: 'hf_directory', path: path.join(deps.config.DEBUGRL_DATA_DIR, 'models', 'smollm2-135m-instruct') },
          lora: { rank: input.loraRank, alpha: 2 * input.loraRank },
          optim: { lr: input.lr },
          // Recompute activations in backward: on CPU, one 2.4k-token example peaked at 4.77 GB without it and 3.14 GB
          // with it, for 42 % more time (benchmarks/sft-side-by-side.md); whole trajectories packed to 12k tokens grew
          // the learner to 11-17 GB and got it OOM-killed.
          gradient_checkpointing: true,
          output_dir: dir,
          base_model_name: 'smollm2',
        }),
      );
      const prev = input.epoch > 1 ? path.join(dir, `epoch-${input.epoch - 1}`) : input.initAdapter ? initFrom(dir, input.initAdapter) : null;
      if (prev && !fs.existsSync(prev)) throw new Error(`epoch ${input.epoch - 1}'s adapter ${prev} is missing; rerun that epoch`);
      const learner = new LearnerProcess(deps.config.DEBUGRL_PYTHON, ['--config', cfgFile, ...(prev ? ['--adapter', prev] : [])]);
      // the interval re-sends the latest progress, so a long learner step neither times out nor hides which step it is
      let progress: Record<string, unknown> = { epoch: input.epoch, phase: 'starting the learner' };
      const beat = setInterval(() => heartbeat(progress), 5000);
      try {
        await learner.ready;
        const perEpoch = Math.ceil(train.length / input.batchExamples);
        const total = perEpoch * input.epochs;
        const order = shuffled(train, input.runId.length * 7919 + input.epoch);
        let lossSum = 0;
        for (let s = 0; s < perEpoch; s++) {
          const step = (input.epoch - 1) * perEpoch + s;
          const file = path.join(dir, `batch-${input.epoch}-${s}.jsonl`);
          fs.writeFileSync(file, order.slice(s * input.batchExamples, (s + 1) * input.batchExamples).join('\n') + '\n');
          progress = { epoch: input.epoch, phase: 'training', step: s + 1, of: perEpoch, ...(s ? { meanLoss: lossSum / s } : {}) };
          heartbeat(progress);
          const r = await learner.request({ type: 'sft_step', examples_path: file, lr: lrAt(step, total, input.lr, input.warmupSteps) });
          lossSum += Number(r.loss);
          fs.rmSync(file, { force: true });
        }
        progress = { epoch: input.epoch, phase: 'held-out loss', meanLoss: lossSum / perEpoch };
        heartbeat(progress);
        const heldOut = readTokens(heldOutFile).length ? await learner.request({ type: 'sft_eval', examples_path: heldOutFile }) : null;
        const saved = await learner.request({ type: 'save_adapter', name: `epoch-${input.epoch}` });
        const result: SftEpochResult = { epoch: input.epoch, steps: perEpoch, trainLoss: lossSum / perEpoch, heldOutLoss: heldOut ? Number(heldOut.loss) : null, adapterPath: String(saved.adapter_path) };
        fs.writeFileSync(`${doneFile}.tmp`, JSON.stringify(result));
        fs.renameSync(`${doneFile}.tmp`, doneFile);
        return result;
      } catch (e) {
        if (e instanceof LearnerServiceError && e.kind === 'invalid_request') throw ApplicationFailure.nonRetryable(`learner refused the corpus: ${e.message}`, 'InvalidInput');
        throw e;
      } finally {
        clearInterval(beat);
        await learner.stop().catch(() => undefined);
      }
    },

    /** Copy the chosen epoch's adapter to <data>/adapters/sft-v<N> (N: one more than the highest there) and load it on
     * the embedded server under that name. Idempotent per run: a retry finds the run's own copy and reloads it. */
    async publishSftAdapter(input: { runId: string; adapterPath: string }): Promise<{ name: string; path: string }> {
      const root = path.join(deps.config.DEBUGRL_DATA_DIR, 'adapters');
      fs.mkdirSync(root, { recursive: true });
      const marker = path.join(runDir(input.runId), 'published.json');
      let target: { name: string; path: string };
      if (fs.existsSync(marker)) target = JSON.parse(fs.readFileSync(marker, 'utf8')) as { name: string; path: string };
      else {
        const n = 1 + Math.max(0, ...fs.readdirSync(root).map((d) => /^sft-v(\d+)$/.exec(d)?.[1]).filter(Boolean).map(Number));
        target = { name: `sft-v${n}`, path: path.join(root, `sft-v${n}`) };
        fs.cpSync(input.adapterPath, `${target.path}.tmp`, { recursive: true });
        fs.renameSync(`${target.path}.tmp`, target.path);
        fs.writeFileSync(marker, JSON.stringify(target));
      }
      const res = await fetch(`${deps.config.DEBUGRL_EMBEDDED_URL.replace(/\/$/, '')}/load_lora_adapter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ lora_name: target.name, lora_path: target.path }),
      });
      if (res.status >= 400 && res.status < 500) throw ApplicationFailure.nonRetryable(`the embedded server refused ${target.name}: HTTP ${res.status} ${await res.text()}`, 'AdapterRejected');
      if (!res.ok) throw new Error(`loading ${target.name}: HTTP ${res.status}`);
      return target;
    },
  };
}
