/** RL from an SFT adapter and BC replay, without services: which examples a step replays, how an init adapter is
 * named, and every bad input refused with a message that names it before anything starts. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkRlInputs, learnerRunOptions, materializeInit, replayExamples, resolveInitAdapter, RlInputError, runInitDir } from '../activities/rl-init';
import { learnerConfigFor } from '../activities/learner';
import { replayIndices } from '../common/bc-replay';
import { SFT_CORPUS_SCHEMA } from '../common/sft-corpus';
import { LearnerSpec, policySpecFor, runSettings, TrainingRunInput } from '../common/training';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bc-replay-'));
const dataDir = path.join(tmp, 'data');
const spec = LearnerSpec.parse({ model: 'tiny-moe', loraRank: 4 });

function writeAdapter(dir: string, cfg: Record<string, unknown>): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'adapter_config.json'), JSON.stringify({ base_model_name_or_path: 'tiny-moe', r: 4, lora_alpha: 8, ...cfg }));
  fs.writeFileSync(path.join(dir, 'adapter_model.safetensors'), 'weights');
  fs.writeFileSync(path.join(dir, 'trainer_state.pt'), 'sft optimizer');
  return dir;
}

function writeCorpus(dir: string, tokenizer: string, ids: (i: number) => number[], n = 6): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ schema: SFT_CORPUS_SCHEMA, tokenizer }));
  const lines = Array.from({ length: n }, (_, i) => {
    const t = ids(i);
    return JSON.stringify({ example_id: `ex${i}`, token_ids: t, assistant_mask: t.map((_, j) => j >= t.length / 2), token_source: 'stored' });
  });
  fs.writeFileSync(path.join(dir, 'train.tokens.jsonl'), lines.join('\n') + '\n');
  return dir;
}

const good = writeAdapter(path.join(dataDir, 'adapters', 'sft-v1'), {});
const corpus = writeCorpus(path.join(tmp, 'corpus'), 'tiny-qwen3-moe test corpus', (i) => [1, 2, 3, 4 + i, 5, 6]);
const cfg = (extra: Record<string, unknown>) => TrainingRunInput.parse({ steps: 1, learner: { model: 'tiny-moe', loraRank: 4 }, ...extra });
const refusal = (extra: Record<string, unknown>) => {
  try {
    checkRlInputs(cfg(extra), dataDir, null);
  } catch (e) {
    expect(e).toBeInstanceOf(RlInputError);
    return (e as Error).message;
  }
  throw new Error('accepted');
};

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('replayIndices', () => {
  it('is deterministic in (seed, step), distinct, in range, and differs between steps', () => {
    const a = replayIndices(50, 8, 7, 3);
    expect(replayIndices(50, 8, 7, 3)).toEqual(a);
    expect(new Set(a).size).toBe(8);
    expect(a.every((i) => i >= 0 && i < 50)).toBe(true);
    expect(replayIndices(50, 8, 7, 4)).not.toEqual(a);
    expect(replayIndices(50, 8, 8, 3)).not.toEqual(a);
    expect([...replayIndices(5, 9, 1, 1)].sort()).toEqual([0, 1, 2, 3, 4]); // more than there are: each once
    expect(replayIndices(0, 4, 1, 1)).toEqual([]);
  });

  it('covers the corpus over steps', () => {
    const seen = new Set<number>();
    for (let step = 1; step <= 40; step++) for (const i of replayIndices(20, 4, 0, step)) seen.add(i);
    expect(seen.size).toBe(20);
  });

  it('replays the same examples for a retried step, in the learner\'s shape (no extra fields)', () => {
    const first = replayExamples(corpus, 3, 2, 3);
    expect(replayExamples(corpus, 3, 2, 3)).toEqual(first);
    expect(first).toHaveLength(3);
    expect(Object.keys(first[0]!).sort()).toEqual(['assistant_mask', 'example_id', 'token_ids']);
  });
});

describe('init adapter and BC corpus inputs', () => {
  it('resolves a name under <data>/adapters and keeps an absolute path', () => {
    expect(resolveInitAdapter('sft-v1', dataDir)).toBe(good);
    expect(resolveInitAdapter('/x/y', dataDir)).toBe('/x/y');
    expect(() => resolveInitAdapter('rel/path', dataDir)).toThrow(/an adapter name under .* or an absolute path/);
  });

  it('accepts a fitting adapter and corpus', () => {
    expect(checkRlInputs(cfg({ initAdapter: 'sft-v1', bcCorpus: corpus }), dataDir, null)).toEqual({ initAdapterDir: good, bcExamples: 6 });
  });

  it('refuses a missing adapter, listing the ones there are', () => {
    expect(refusal({ initAdapter: 'sft-v9' })).toBe(`initAdapter sft-v9: no adapter folder at ${path.join(dataDir, 'adapters', 'sft-v9')} (adapters there: sft-v1)`);
  });

  it('refuses an adapter of another rank or base model', () => {
    writeAdapter(path.join(dataDir, 'adapters', 'rank16'), { r: 16, lora_alpha: 32 });
    expect(refusal({ initAdapter: 'rank16' })).toBe("initAdapter rank16 does not fit this run's learner: r 16 (this run's learner: 4), lora_alpha 32 (this run's learner: 8); pass --lora-rank to match it");
    writeAdapter(path.join(dataDir, 'adapters', 'smol'), { base_model_name_or_path: 'smollm2' });
    expect(refusal({ initAdapter: 'smol' })).toMatch(/base_model_name_or_path "smollm2" \(this run's learner: "tiny-moe"\)/);
    fs.mkdirSync(path.join(dataDir, 'adapters', 'empty'));
    expect(refusal({ initAdapter: 'empty' })).toMatch(/is not a PEFT adapter folder \(no adapter_config.json\)/);
  });

  it('refuses a missing corpus, a relative one, and one built with another tokenizer', () => {
    expect(refusal({ bcCorpus: path.join(tmp, 'nope') })).toBe(`bcCorpus ${path.join(tmp, 'nope')}: no such folder`);
    expect(refusal({ bcCorpus: 'corpus' })).toMatch(/give an absolute path/);
    const smol = writeCorpus(path.join(tmp, 'smol-corpus'), 'SmolLM2-135M-Instruct chat template (native/debugrl_native/learner/sft.py); stored token ids reused', (i) => [1, 2, 3 + i]);
    expect(refusal({ bcCorpus: smol })).toBe(`bcCorpus ${smol} was tokenized with "SmolLM2-135M-Instruct chat template (native/debugrl_native/learner/sft.py); stored token ids reused", but this run's learner (tiny-moe) reads tiny-qwen3-moe tokens`);
    const wide = writeCorpus(path.join(tmp, 'wide-corpus'), 'tiny-qwen3-moe', (i) => [1, 2, 300 + i]);
    expect(refusal({ bcCorpus: wide })).toBe(`bcCorpus ${wide}: example ex0 has token id 300, outside tiny-moe's vocabulary of 128`);
  });

  it('refuses a BC weight or count without a corpus', () => {
    const r = TrainingRunInput.safeParse({ steps: 1, bcWeight: 0.5 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ['bcWeight'], message: 'only with bcCorpus (the SFT corpus to replay)' });
    expect(runSettings(cfg({ bcCorpus: corpus }))).toMatchObject({ bcWeight: 0.1, bcExamples: 4 });
  });

  it("copies the adapter into the run once, without the SFT run's optimizer state", () => {
    const init = materializeInit(dataDir, 'run-a', 'sft-v1', spec);
    expect(init).toBe(runInitDir(dataDir, 'run-a'));
    expect(fs.readdirSync(init).sort()).toEqual(['adapter_config.json', 'adapter_model.safetensors']);
    fs.rmSync(good, { recursive: true });
    // a resumed run uses its own copy, though the source is gone
    expect(materializeInit(dataDir, 'run-a', 'sft-v1', spec)).toBe(init);
    expect(checkRlInputs(cfg({ initAdapter: 'sft-v1' }), dataDir, 'run-a').initAdapterDir).toBe(init);
    writeAdapter(good, {});
  });

  it('gives the learner the init adapter as its start and its KL reference, and the BC weight', () => {
    const c = learnerConfigFor(spec, '/run', '/data', 4, learnerRunOptions('/run/init', 0.3));
    expect(c).toMatchObject({ init_adapter: '/run/init', reference_adapter: '/run/init', loss: { bc_coef: 0.3, kl_coef: 0.01, max_policy_lag: 4 } });
    const plain = learnerConfigFor(spec, '/run', '/data', 4);
    expect(plain).not.toHaveProperty('init_adapter');
    expect(plain).not.toHaveProperty('reference_adapter');
    expect(plain.loss).not.toHaveProperty('bc_coef');
  });

  it('serves version 0 as the run\'s adapter when the run starts from one', () => {
    expect(policySpecFor('embedded', 0, 'run-a', true)).toBe('embedded:run-a--policy-v0');
    expect(policySpecFor('embedded', 0, 'run-a')).toBe('embedded');
    expect(policySpecFor('embedded', 2, 'run-a', true)).toBe('embedded:run-a--policy-v2');
  });
});
