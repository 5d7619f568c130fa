/** RL from an SFT adapter with BC replay, on real PostgreSQL, Kafka and the Python learner service (the tiny random
 * Qwen3-MoE): the run's version 0 is the init adapter (its weights, written as v0 for the server), the KL at step 1
 * is 0 against it, each step replays the corpus's examples in the BC term, a learner restarted after a crash keeps the
 * init adapter as its reference, and a missing adapter or a corpus of another tokenizer fails the run's first
 * activity before anything is registered. */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createLearnerActivities, LearnerHost } from '../activities/learner';
import { createRlInitActivities, runInitDir } from '../activities/rl-init';
import { createTrainingActivities } from '../activities/training-coordinator';
import { beginRun, sealAndPublishGroup } from '../activities/training-store';
import { REPO_ROOT } from '../common/config';
import { SFT_CORPUS_SCHEMA } from '../common/sft-corpus';
import { GROUP_SCHEMA, LearnerSpec, TrainingRunInput, type GroupRecord, type StepResult } from '../common/training';
import { TRAJECTORY_SCHEMA, type TrajectoryRecord } from '../common/trajectory';
import { openDeps, type OpenDeps } from '../workers/deps';
import { config } from './helpers/services';

const run = promisify(execFile);
const runId = `init-adapter-test-${Date.now()}`;
const spec = LearnerSpec.parse({ model: 'tiny-moe', loraRank: 4, lr: 1e-3 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'init-adapter-'));
const adapterDir = path.join(tmp, 'sft-test');
const corpus = path.join(tmp, 'corpus');

/** An SFT-like adapter for the tiny MoE, far from zero, recorded as another run's version 23. */
const MAKE_ADAPTER = `
import sys, torch
from pathlib import Path
from debugrl_native.learner.config import LearnerConfig, LoraConfig
from debugrl_native.learner.lora import save_adapter
from debugrl_native.learner.train import Learner
cfg = LearnerConfig(lora=LoraConfig(rank=4, alpha=8.0), base_model_name="tiny-moe", output_dir=Path(sys.argv[1]).parent)
learner = Learner(cfg)
g = torch.Generator().manual_seed(3)
with torch.no_grad():
    for p in learner.adapter_params:
        p.add_(0.3 * torch.randn(p.shape, generator=g))
save_adapter(learner.model, Path(sys.argv[1]), 23, cfg.lora, "tiny-moe")
`;

function record(episodeId: string, version: number, seed: number): TrajectoryRecord {
  const rnd = (i: number) => (seed * 31 + i * 17) % 128;
  const prompt = Array.from({ length: 12 }, (_, i) => rnd(i));
  const completion = Array.from({ length: 6 }, (_, i) => rnd(i + 40));
  const now = new Date().toISOString();
  const assistant = {
    message: { role: 'assistant' as const, content: null }, toolCall: null, invalidReason: null, promptTokens: prompt.length, completionTokens: completion.length,
    tokenCounting: 'server-usage' as const, policyVersion: version, promptTokenIds: prompt, tokenIds: completion, logprobs: completion.map(() => -2.5), latencyMs: 1,
  };
  return {
    schema: TRAJECTORY_SCHEMA, episodeId, workflowId: episodeId, taskId: 'fake_task', split: 'train', policy: { spec: 'embedded', version },
    toolset: 'full', evaluationId: null, arm: null, seed, limits: {}, messages: [], turns: [{ turn: 1, assistant, tool: null }], recoveries: [],
    outcome: { passed: seed % 2 === 0, tests: {}, exitReason: 'done', error: null, gradeNotes: [] },
    tokens: { prompt: 0, completion: 0, finalContext: 0 }, timings: { startedAt: now, finishedAt: now, durationMs: 0 },
  };
}

async function sealGroup(deps: OpenDeps, name: string, version: number, seed: number): Promise<void> {
  const eps = [0, 1, 2].map((i) => ({ id: `${runId}-${name}${i}`, reward: i - 1 }));
  for (const [i, e] of eps.entries()) {
    const r = record(e.id, version, seed + i);
    await deps.pool.query(
      `insert into episodes (episode_id, workflow_id, task_id, split, policy_spec, policy_version, toolset, passed, exit_reason, turns,
         prompt_tokens, completion_tokens, tests, record, started_at, finished_at)
       values ($1,$1,'fake_task','train','embedded',$2,'full',$3,'done',1,0,0,'{}',$4,now(),now()) on conflict do nothing`,
      [e.id, version, r.outcome.passed, JSON.stringify(r)],
    );
  }
  const g: GroupRecord = {
    schema: GROUP_SCHEMA, groupId: `${runId}-${name}`, runId, taskId: 'fake_task', rewardConfig: 'test', sealedReason: 'full', infraFailures: 0,
    episodes: eps.map((e) => ({ episodeId: e.id, reward: e.reward, components: {}, passed: e.reward > 0, usedDebugger: false, minPolicyVersion: version })),
  };
  await sealAndPublishGroup(deps, g);
}

/** The tensor bytes of a safetensors file (after its header, which carries the policy version). */
function tensorBytes(file: string): Buffer {
  const buf = fs.readFileSync(file);
  return buf.subarray(8 + Number(buf.readBigUInt64LE(0)));
}

describe('RL from an init adapter with BC replay (real PostgreSQL, Kafka and learner service)', () => {
  let deps: OpenDeps;
  let host: LearnerHost;
  const env = new MockActivityEnvironment();
  let acts: ReturnType<typeof createLearnerActivities> & ReturnType<typeof createRlInitActivities>;
  const bc = { corpus, weight: 0.5, examples: 3, seed: 7 };
  const stepInput = (step: number) => ({ runId, step, groups: 1, maxPolicyLag: 4, learner: spec, initAdapter: adapterDir, bc });
  const trainStep = (input: unknown) => env.run(acts.trainStep, input as Parameters<typeof acts.trainStep>[0]) as Promise<StepResult>;

  beforeAll(async () => {
    await run(config.DEBUGRL_PYTHON, ['-c', MAKE_ADAPTER, adapterDir], { cwd: path.join(REPO_ROOT, 'native') });
    fs.mkdirSync(corpus);
    fs.writeFileSync(path.join(corpus, 'manifest.json'), JSON.stringify({ schema: SFT_CORPUS_SCHEMA, tokenizer: 'tiny-qwen3-moe (random token ids, this test)' }));
    const lines = Array.from({ length: 8 }, (_, i) => {
      const ids = Array.from({ length: 14 }, (_, j) => (i * 13 + j * 7) % 128);
      return JSON.stringify({ example_id: `ex${i}`, token_ids: ids, assistant_mask: ids.map((_, j) => j >= 6), token_source: 'stored' });
    });
    fs.writeFileSync(path.join(corpus, 'train.tokens.jsonl'), lines.join('\n') + '\n');
    deps = openDeps(config, 'init-adapter-test');
    host = new LearnerHost(config);
    acts = { ...createLearnerActivities(deps, host), ...createRlInitActivities({ config }, host) };
    await beginRun(deps, { runId, workflowId: runId, input: {} });
  }, 120_000);
  afterAll(async () => {
    await host.close();
    await deps.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("version 0 is the init adapter's weights, written under the run's version for the server", async () => {
    const v0 = (await env.run(acts.prepareInitialPolicy, { runId, initAdapter: adapterDir, learner: spec, maxPolicyLag: 4, bcWeight: bc.weight })) as { version: number; adapterPath: string };
    expect(v0).toEqual({ version: 0, adapterPath: path.join(host.runDir(runId), 'adapters', 'v0') });
    expect(tensorBytes(path.join(v0.adapterPath, 'adapter_model.safetensors')).equals(tensorBytes(path.join(adapterDir, 'adapter_model.safetensors')))).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(v0.adapterPath, 'adapter_config.json'), 'utf8')).revision).toBe('policy-v0');
    const learnerCfg = JSON.parse(fs.readFileSync(path.join(host.runDir(runId), 'learner.json'), 'utf8'));
    expect(learnerCfg).toMatchObject({ init_adapter: runInitDir(config.DEBUGRL_DATA_DIR, runId), reference_adapter: runInitDir(config.DEBUGRL_DATA_DIR, runId), loss: { bc_coef: 0.5 } });
  }, 240_000);

  it('step 1: KL 0 against the init adapter, the replayed examples in the BC term, on the same learner', async () => {
    const pid = host.current()?.pid;
    await sealGroup(deps, 'ga', 0, 1);
    const r1 = await trainStep(stepInput(1));
    expect(host.current()?.pid).toBe(pid); // prepareInitialPolicy's learner, not a restarted one
    expect([r1.versionBefore, r1.versionAfter]).toEqual([0, 1]);
    expect(r1.metrics?.kl_mean).toBeLessThan(1e-6);
    expect(r1.metrics?.sft_examples_trained).toBe(3);
    expect(r1.metrics?.loss_bc).toBeGreaterThan(0);
    expect(r1.metrics?.bc_coef).toBe(0.5);
    const batch = JSON.parse(fs.readFileSync(path.join(host.runDir(runId), 'batches', 'step-1.json'), 'utf8'));
    expect(batch.sft_examples.map((e: { example_id: string }) => e.example_id)).toHaveLength(3);
  }, 240_000);

  it('a learner restarted after a crash resumes from v1 and keeps the init adapter as its reference', async () => {
    await sealGroup(deps, 'gb', 1, 11);
    host.current()?.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
    const r2 = await trainStep(stepInput(2));
    expect([r2.versionBefore, r2.versionAfter]).toEqual([1, 2]);
    // the policy moved one step from the init adapter: a small KL, against the init adapter, not the base (>> 1e-2)
    expect(r2.metrics?.kl_mean).toBeGreaterThan(0);
    expect(r2.metrics?.kl_mean).toBeLessThan(1e-2);
    expect(r2.metrics?.sft_examples_trained).toBe(3);
  }, 240_000);

  it("fails a missing adapter or another tokenizer's corpus in the run's first activity, before it registers", async () => {
    const store = createTrainingActivities(deps);
    const begin = (extra: Record<string, unknown>, id: string) =>
      env.run(store.beginTrainingRun, { runId: id, workflowId: id, input: TrainingRunInput.parse({ steps: 1, learner: spec, ...extra }) }).catch((e: unknown) => e);
    const missing = await begin({ initAdapter: 'sft-v999999' }, `${runId}-bad1`);
    expect(missing).toBeInstanceOf(ApplicationFailure);
    expect((missing as ApplicationFailure).nonRetryable).toBe(true);
    expect((missing as ApplicationFailure).type).toBe('InvalidInput');
    expect((missing as ApplicationFailure).message).toContain(`initAdapter sft-v999999: no adapter folder at ${path.join(config.DEBUGRL_DATA_DIR, 'adapters', 'sft-v999999')}`);
    const other = path.join(tmp, 'smol-corpus');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'manifest.json'), JSON.stringify({ schema: SFT_CORPUS_SCHEMA, tokenizer: 'SmolLM2-135M-Instruct chat template' }));
    const wrong = await begin({ bcCorpus: other }, `${runId}-bad2`);
    expect((wrong as ApplicationFailure).message).toContain("but this run's learner (tiny-moe) reads tiny-qwen3-moe tokens");
    const rows = await deps.pool.query('select run_id from training_runs where run_id = any($1)', [[`${runId}-bad1`, `${runId}-bad2`]]);
    expect(rows.rowCount).toBe(0);
  });
});
