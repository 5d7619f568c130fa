/**
 * RL from an SFT adapter, with behaviour-cloning replay of its corpus (the seed: "a behaviour-cloning anchor with
 * replay seeded from the SFT corpus", and the KL reference is the SFT initialisation).
 *
 *   resolve   `sft-v<N>` -> <data>/adapters/sft-v<N> (what `sft train` publishes); an absolute path is a PEFT folder
 *   check     before anything starts (the CLI, and the run's first activity): the adapter exists and fits the
 *             learner (base model, rank, alpha); the corpus exists, was tokenized for the learner's model, and its
 *             token ids fit that model's vocabulary
 *   copy      the run keeps its own copy, <data>/training/<run>/init (without optimizer state): a resumed run starts
 *             from, and measures its KL against, the same weights even if the source folder changes or goes
 *   replay    each step's SFT examples, chosen by the run's seed and the step (common/bc-replay.ts)
 *   v0        prepareInitialPolicy starts the learner from the copy; the learner writes it as version 0, which the
 *             workflow then publishes like any version, so episodes at v0 run on it
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { replayIndices } from '../common/bc-replay';
import { parseInput } from '../common/boundary';
import type { Config } from '../common/config';
import { Failure } from '../common/failures';
import { SFT_CORPUS_SCHEMA } from '../common/sft-corpus';
import { LearnerSpec, type TrainingRunConfig } from '../common/training';
import type { LearnerHost } from './learner';
import { loraAlpha } from './learner/config';

/** A bad init adapter or corpus: the caller's mistake, named, never worth retrying. */
export class RlInputError extends Error {}

/** The tokenizer each learner model reads: an SFT corpus's manifest must name it (`tokenizer` starts with `name`), and
 * its token ids must fit the vocabulary. */
export const LEARNER_TOKENIZER: Record<LearnerSpec['model'], { name: string; vocabSize: number }> = {
  smollm2: { name: 'SmolLM2-135M-Instruct', vocabSize: 49_152 },
  'tiny-moe': { name: 'tiny-qwen3-moe', vocabSize: 128 },
};

/** One replayed example, as the learner's `SftExample` takes it. */
export interface ReplayExample {
  example_id: string;
  token_ids: number[];
  assistant_mask: boolean[];
}

const TokensLine = z.object({ example_id: z.string().min(1), token_ids: z.array(z.number().int().min(0)).min(2), assistant_mask: z.array(z.boolean()) });

/** Where a run keeps its copy of the init adapter. */
export const runInitDir = (dataDir: string, runId: string) => path.join(dataDir, 'training', runId, 'init');

/** `sft-v<N>` (any plain name) -> <data>/adapters/<name>; an absolute path stays as it is. */
export function resolveInitAdapter(ref: string, dataDir: string): string {
  if (path.isAbsolute(ref)) return ref;
  if (/^[\w.-]+$/.test(ref) && ref !== '.' && ref !== '..') return path.join(dataDir, 'adapters', ref);
  throw new RlInputError(`initAdapter "${ref}": give an adapter name under ${path.join(dataDir, 'adapters')} (such as sft-v1) or an absolute path`);
}

function readJson(file: string, what: string): Record<string, unknown> {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new RlInputError(`${what}: cannot read ${file}: ${(e as Error).message}`);
  }
}

/** The LoRA rank an adapter folder was trained with (null when it has no readable config). */
export function adapterRank(dir: string): number | null {
  try {
    const r = (JSON.parse(fs.readFileSync(path.join(dir, 'adapter_config.json'), 'utf8')) as { r?: unknown }).r;
    return typeof r === 'number' ? r : null;
  } catch {
    return null;
  }
}

/** The adapter folder must exist and fit the learner: the same base model (its weights would mean something else on
 * another), the same rank and alpha (they would not load). The learner checks the same at start-up (lora.py). */
export function checkInitAdapter(dir: string, spec: LearnerSpec, ref = dir): void {
  if (!fs.existsSync(dir)) {
    const root = path.dirname(dir);
    const known = fs.existsSync(root) ? fs.readdirSync(root).filter((d) => /^sft-v\d+$/.test(d)) : [];
    throw new RlInputError(`initAdapter ${ref}: no adapter folder at ${dir}${known.length ? ` (adapters there: ${known.join(', ')})` : ''}`);
  }
  for (const f of ['adapter_config.json', 'adapter_model.safetensors']) {
    if (!fs.existsSync(path.join(dir, f))) throw new RlInputError(`initAdapter ${ref}: ${dir} is not a PEFT adapter folder (no ${f})`);
  }
  const c = readJson(path.join(dir, 'adapter_config.json'), `initAdapter ${ref}`);
  const want: Record<string, unknown> = { base_model_name_or_path: spec.model, r: spec.loraRank, lora_alpha: loraAlpha(spec.loraRank) };
  const bad = Object.entries(want).filter(([k, v]) => c[k] !== v).map(([k, v]) => `${k} ${JSON.stringify(c[k])} (this run's learner: ${JSON.stringify(v)})`);
  if (bad.length) throw new RlInputError(`initAdapter ${ref} does not fit this run's learner: ${bad.join(', ')}${c.r !== spec.loraRank ? '; pass --lora-rank to match it' : ''}`);
}

function tokenLines(corpus: string): string[] {
  const file = path.join(corpus, 'train.tokens.jsonl');
  if (!fs.existsSync(file)) throw new RlInputError(`bcCorpus ${corpus}: no train.tokens.jsonl (not a corpus folder written by \`sft build\`)`);
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim());
}

function parseLine(line: string, corpus: string, i: number): ReplayExample {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    throw new RlInputError(`bcCorpus ${corpus}: train.tokens.jsonl line ${i + 1} is not JSON`);
  }
  const p = TokensLine.safeParse(raw);
  if (!p.success) throw new RlInputError(`bcCorpus ${corpus}: train.tokens.jsonl line ${i + 1}: ${z.prettifyError(p.error)}`);
  if (p.data.assistant_mask.length !== p.data.token_ids.length) throw new RlInputError(`bcCorpus ${corpus}: example ${p.data.example_id} has ${p.data.token_ids.length} tokens but ${p.data.assistant_mask.length} mask flags`);
  return { example_id: p.data.example_id, token_ids: p.data.token_ids, assistant_mask: p.data.assistant_mask };
}

/** The corpus must be an `sft build` folder tokenized for the learner's model, with train examples whose ids fit its
 * vocabulary (a corpus of another tokenizer would train on the wrong tokens, or be refused mid-step). */
export function checkBcCorpus(corpus: string, spec: LearnerSpec): { trainExamples: number } {
  if (!path.isAbsolute(corpus)) throw new RlInputError(`bcCorpus ${corpus}: give an absolute path (the workers do not share your working directory)`);
  if (!fs.existsSync(corpus)) throw new RlInputError(`bcCorpus ${corpus}: no such folder`);
  const manifest = readJson(path.join(corpus, 'manifest.json'), `bcCorpus ${corpus}`);
  if (manifest.schema !== SFT_CORPUS_SCHEMA) throw new RlInputError(`bcCorpus ${corpus}: manifest schema ${JSON.stringify(manifest.schema)}, expected ${SFT_CORPUS_SCHEMA}`);
  const tok = LEARNER_TOKENIZER[spec.model];
  if (typeof manifest.tokenizer !== 'string' || !manifest.tokenizer.startsWith(tok.name)) {
    throw new RlInputError(`bcCorpus ${corpus} was tokenized with ${JSON.stringify(manifest.tokenizer)}, but this run's learner (${spec.model}) reads ${tok.name} tokens`);
  }
  const lines = tokenLines(corpus);
  if (!lines.length) throw new RlInputError(`bcCorpus ${corpus}: train.tokens.jsonl holds no examples`);
  lines.forEach((l, i) => {
    const ex = parseLine(l, corpus, i);
    const max = Math.max(...ex.token_ids);
    if (max >= tok.vocabSize) throw new RlInputError(`bcCorpus ${corpus}: example ${ex.example_id} has token id ${max}, outside ${spec.model}'s vocabulary of ${tok.vocabSize}`);
  });
  return { trainExamples: lines.length };
}

/** Everything about a run's init adapter and BC corpus that can be checked before it starts. A resumed run's own copy
 * of the adapter counts as its init adapter. Throws RlInputError naming the problem. */
export function checkRlInputs(cfg: TrainingRunConfig, dataDir: string, runId: string | null): { initAdapterDir: string | null; bcExamples: number | null } {
  let initAdapterDir: string | null = null;
  if (cfg.initAdapter !== undefined) {
    const copy = runId ? runInitDir(dataDir, runId) : null;
    initAdapterDir = copy && fs.existsSync(copy) ? copy : resolveInitAdapter(cfg.initAdapter, dataDir);
    checkInitAdapter(initAdapterDir, cfg.learner, cfg.initAdapter);
  }
  const bc = cfg.bcCorpus !== undefined ? checkBcCorpus(cfg.bcCorpus, cfg.learner).trainExamples : null;
  return { initAdapterDir, bcExamples: bc };
}

/** The run's copy of its init adapter (made once; the optimizer state of the SFT run is left behind: RL starts a new
 * optimizer). Returns the copy's folder. */
export function materializeInit(dataDir: string, runId: string, ref: string, spec: LearnerSpec): string {
  const init = runInitDir(dataDir, runId);
  if (fs.existsSync(init)) return init;
  const src = resolveInitAdapter(ref, dataDir);
  checkInitAdapter(src, spec, ref);
  fs.mkdirSync(path.dirname(init), { recursive: true });
  const tmp = `${init}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.cpSync(src, tmp, { recursive: true, filter: (f) => path.basename(f) !== 'trainer_state.pt' });
  fs.renameSync(tmp, init);
  return init;
}

/** The SFT examples step `step` replays: `take` of the corpus's train examples, by the run's seed and the step. */
export function replayExamples(corpus: string, seed: number, step: number, take: number): ReplayExample[] {
  const lines = tokenLines(corpus);
  return replayIndices(lines.length, take, seed, step).map((i) => parseLine(lines[i]!, corpus, i));
}

/** The same check as an activity failure: non-retryable, type InvalidInput. */
export function rlInputFailure(e: unknown): unknown {
  return e instanceof RlInputError ? ApplicationFailure.nonRetryable(e.message, Failure.InvalidInput) : e;
}

export const PrepareInitInput = z
  .object({
    runId: z.string().min(1),
    initAdapter: z.string().min(1),
    learner: LearnerSpec,
    maxPolicyLag: z.number().int().min(0),
    /** The learner's BC weight, when the run replays a corpus (the learner's settings are one, so its key matches the
     * training steps' and the service is not restarted between). */
    bcWeight: z.number().min(0).optional(),
  })
  .strict();
export type PrepareInitInput = z.input<typeof PrepareInitInput>;

/** The learner's options for a run from an init adapter and/or with BC replay (LearnerHost.ensure). */
export function learnerRunOptions(initAdapterDir: string | null, bcWeight: number | undefined): { initAdapter?: string; bcWeight?: number } {
  return { ...(initAdapterDir ? { initAdapter: initAdapterDir } : {}), ...(bcWeight !== undefined ? { bcWeight } : {}) };
}

export function createRlInitActivities(deps: { config: Config }, host: LearnerHost) {
  return {
    /** Start the run's learner from its copy of the init adapter, which the learner writes as the run's first version;
     * returns that folder for publishAdapter. Only before the first committed step (the workflow's rule). */
    async prepareInitialPolicy(raw: PrepareInitInput): Promise<{ version: number; adapterPath: string }> {
      const input = parseInput(PrepareInitInput, raw, 'prepareInitialPolicy');
      let init: string;
      try {
        init = materializeInit(deps.config.DEBUGRL_DATA_DIR, input.runId, input.initAdapter, input.learner);
      } catch (e) {
        throw rlInputFailure(e);
      }
      const version = input.learner.initialVersion;
      const learner = await host.ensure(input.runId, input.learner, input.maxPolicyLag, { version, adapterPath: null }, learnerRunOptions(init, input.bcWeight));
      const status = await learner.request({ type: 'status' });
      if (Number(status.policy_version) !== version || typeof status.adapter_path !== 'string') {
        throw new Error(`the learner started from ${init} holds version ${String(status.policy_version)} at ${String(status.adapter_path)}, not version ${version}`);
      }
      return { version, adapterPath: status.adapter_path };
    },
  };
}

export type RlInitActivities = ReturnType<typeof createRlInitActivities>;

