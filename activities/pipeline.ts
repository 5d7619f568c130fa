/**
 * The pipeline's corpus stage (workflows/pipeline.ts): the teacher's trajectories as an SFT corpus (`sft build`'s code),
 * then a copy cut to what CPU training can afford (common/sft-cut.ts), which SftWorkflow trains on and the training
 * run replays. Both folders are named after the pipeline, so the stage is idempotent: a retry, or the stage run again
 * after a crash, finds the folders a finished attempt wrote (each is written whole or not at all) and returns them.
 *
 *   <data>/sft-corpora/<pipeline>/               the corpus (`sft build --no-microskills`: manifest, report, examples)
 *   <data>/sft-corpora/<pipeline>-cut<tokens>/   train/heldout.tokens.jsonl cut, derivation.json, the manifest with
 *                                                "derivation" added (same schema and tokenizer: the ids are the
 *                                                source's, cut, so `train --bc-corpus` accepts it)
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import type { Pool } from 'pg';
import { z } from 'zod';
import { parseInput } from '../common/boundary';
import type { Config } from '../common/config';
import { Failure } from '../common/failures';
import type { PipelineCorpus } from '../common/pipeline';
import { CorpusExample } from '../common/sft-corpus';
import { cutPart, derivationOf, TokensRow, type Derivation, type ExampleMeta } from '../common/sft-cut';
import { withHeartbeat } from './heartbeat';
import { buildSftCorpus, EmptyCorpusError, SftInputError } from './sft';

export const PipelineCorpusInput = z
  .object({
    pipelineId: z.string().regex(/^[\w.-]{1,80}$/),
    /** The teacher's evaluation. */
    evaluationId: z.string().min(1),
    maxTokens: z.number().int().min(64),
    heldOutFraction: z.number().min(0).max(0.5),
  })
  .strict();
export type PipelineCorpusInput = z.input<typeof PipelineCorpusInput>;

const readJsonl = (file: string): unknown[] =>
  fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown) : [];
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');

/** Write a folder whole or not at all: filled in a temporary sibling, renamed into place. */
function writeFolder(dir: string, files: Record<string, string>): void {
  const tmp = `${dir}.tmp-${randomBytes(4).toString('hex')}`;
  fs.mkdirSync(tmp, { recursive: true });
  try {
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(tmp, name), text);
    fs.renameSync(tmp, dir);
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

/** Cut `corpusDir` into `cutDir` (common/sft-cut.ts); an existing cut of the same corpus and limit is kept. */
export function cutCorpus(corpusDir: string, cutDir: string, maxTokens: number): Derivation {
  const derivationFile = path.join(cutDir, 'derivation.json');
  if (fs.existsSync(derivationFile)) {
    const d = JSON.parse(fs.readFileSync(derivationFile, 'utf8')) as Derivation;
    if (d.from !== corpusDir || d.max_tokens !== maxTokens) throw new SftInputError(`${cutDir} holds a cut of ${d.from} to ${d.max_tokens} tokens, not of ${corpusDir} to ${maxTokens}`);
    return d;
  }
  const meta = new Map<string, ExampleMeta>(
    readJsonl(path.join(corpusDir, 'examples.jsonl')).map((raw) => {
      const e = CorpusExample.parse(raw);
      return [e.exampleId, { kind: e.kind, taskId: e.provenance.taskId }];
    }),
  );
  const part = (name: string) => cutPart(readJsonl(path.join(corpusDir, `${name}.tokens.jsonl`)).map((r) => TokensRow.parse(r)), meta, maxTokens);
  const parts = { train: part('train'), heldout: part('heldout') };
  if (!parts.train.rows.length) throw new SftInputError(`no train trajectory of ${corpusDir} has an assistant turn that ends within ${maxTokens} tokens (${parts.train.tooLong} too long); raise the limit`);
  const derivation = derivationOf(corpusDir, maxTokens, parts);
  const manifest = JSON.parse(fs.readFileSync(path.join(corpusDir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  writeFolder(cutDir, {
    'train.tokens.jsonl': jsonl(parts.train.rows),
    'heldout.tokens.jsonl': jsonl(parts.heldout.rows),
    'derivation.json': JSON.stringify(derivation, null, 2) + '\n',
    'manifest.json': JSON.stringify({ ...manifest, derivation }, null, 2) + '\n',
  });
  return derivation;
}

/** The corpus and its cut, each reused when a finished attempt wrote it (for the same teacher evaluation). */
async function pipelineCorpus(deps: { pool: Pool; config: Config }, input: z.infer<typeof PipelineCorpusInput>): Promise<PipelineCorpus> {
  const root = path.join(deps.config.DEBUGRL_DATA_DIR, 'sft-corpora');
  const corpusDir = path.join(root, input.pipelineId);
  const cutDir = path.join(root, `${input.pipelineId}-cut${input.maxTokens}`);
  const manifestFile = path.join(corpusDir, 'manifest.json');
  if (fs.existsSync(manifestFile)) {
    const built = (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { input: { evaluationIds: string[] } }).input.evaluationIds;
    if (built.join() !== input.evaluationId) throw new SftInputError(`${corpusDir} holds a corpus built from ${built.join(', ')}, not ${input.evaluationId}`);
  } else {
    await buildSftCorpus(deps, { evaluationIds: [input.evaluationId], outDir: corpusDir, heldOutFraction: input.heldOutFraction, microskills: false, replace: false });
  }
  const d = cutCorpus(corpusDir, cutDir, input.maxTokens);
  const examples = (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { examples: number }).examples;
  return { corpusDir, cutDir, examples, trainExamples: d.train_tasks.length, heldOutExamples: d.heldout_tasks.length, tooLong: d.too_long.train + d.too_long.heldout };
}

export function createPipelineActivities(deps: { pool: Pool; config: Config }) {
  return {
    /** The teacher's passing trajectories as a corpus, and its cut copy. Idempotent (see the header). It heartbeats, so
     * a worker that dies during the build is noticed in a minute, not at the start-to-close timeout. */
    async buildPipelineCorpus(raw: PipelineCorpusInput): Promise<PipelineCorpus> {
      const input = parseInput(PipelineCorpusInput, raw, 'buildPipelineCorpus');
      try {
        return await withHeartbeat(() => pipelineCorpus(deps, input), { everyMs: 10_000 });
      } catch (e) {
        if (e instanceof EmptyCorpusError) throw ApplicationFailure.nonRetryable(`the teacher left nothing to learn from: ${e.message}`, Failure.InvalidInput);
        if (e instanceof SftInputError) throw ApplicationFailure.nonRetryable(e.message, Failure.InvalidInput);
        throw e;
      }
    },
  };
}

export type PipelineActivities = ReturnType<typeof createPipelineActivities>;
