/** RL from an SFT adapter, as served: the run's version 0 is the init adapter, published under the run's scoped name
 * like any trained version, and the real embedded server then answers for it with policy version 0 and the learner's
 * own logprobs (the canary), not the base model's. Real embedded server (DEBUGRL_EMBEDDED_URL) and the SmolLM2
 * learner. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createAdapterActivities, LearnerHost } from '../activities/learner';
import { createRlInitActivities } from '../activities/rl-init';
import { LearnerSpec, policySpecFor, servedAdapterName, type PublishResult } from '../common/training';
import { config } from './helpers/services';

const runId = `init-served-${Date.now()}`;
const spec = LearnerSpec.parse({ model: 'smollm2', loraRank: 4 });
const served = servedAdapterName(runId, 0);

/** A SmolLM2 LoRA adapter far enough from zero to change the model's logprobs, recorded as another run's version 17. */
function writeAdapter(dir: string): void {
  const script = `
import sys, torch
from pathlib import Path
from transformers import AutoModelForCausalLM
from debugrl_native.learner.config import LoraConfig
from debugrl_native.learner.lora import apply_lora, lora_parameters, save_adapter
m = AutoModelForCausalLM.from_pretrained(sys.argv[1])
cfg = LoraConfig(rank=4, alpha=8.0)
apply_lora(m, cfg)
torch.manual_seed(0)
with torch.no_grad():
    for p in lora_parameters(m).values():
        p.add_(torch.randn_like(p) * 0.02)
save_adapter(m, Path(sys.argv[2]), 17, cfg, "smollm2")
`;
  const r = spawnSync(config.DEBUGRL_PYTHON, ['-c', script, path.join(config.DEBUGRL_DATA_DIR, 'models', 'smollm2-135m-instruct'), dir], { cwd: path.resolve(__dirname, '../native'), encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`writing the adapter failed: ${r.stderr.slice(-2000)}`);
}

async function chat(model: string): Promise<{ policy_version?: number; logprobs: number[] }> {
  const res = await fetch(`${config.DEBUGRL_EMBEDDED_URL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 6, temperature: 0, logprobs: true }),
  });
  const j = (await res.json()) as { policy_version?: number; choices: { logprobs: { content: { logprob: number }[] } }[] };
  return { policy_version: j.policy_version, logprobs: j.choices[0]!.logprobs.content.map((c) => c.logprob) };
}

describe('the init adapter served as version 0 (real embedded server, SmolLM2 learner)', () => {
  const host = new LearnerHost(config);
  const env = new MockActivityEnvironment();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'init-served-'));
  afterAll(async () => {
    await fetch(`${config.DEBUGRL_EMBEDDED_URL}/unload_lora_adapter`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ lora_name: served }) }).catch(() => undefined);
    await host.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }, 120_000);

  it('publishes the init adapter as v0; the server answers for it with version 0 and the learner\'s logprobs', async () => {
    const dir = path.join(tmp, 'sft-like');
    writeAdapter(dir);
    const rl = createRlInitActivities({ config }, host);
    const adapters = createAdapterActivities({ config }, host);
    const v0 = (await env.run(rl.prepareInitialPolicy, { runId, initAdapter: dir, learner: spec, maxPolicyLag: 4 })) as { version: number; adapterPath: string };
    expect(v0.version).toBe(0);
    const pub = (await env.run(adapters.publishAdapter, { runId, version: 0, adapterPath: v0.adapterPath, keep: 5, name: served })) as PublishResult;
    expect(pub.adapter).toBe(served);
    expect(pub.canary.maxAbsDiff).toBeLessThanOrEqual(pub.canary.tolerance); // the server runs the learner's v0 weights
    expect(policySpecFor('embedded', 0, runId, true)).toBe(`embedded:${served}`);
    const onInit = await chat(served);
    const onBase = await chat('default'); // the base model's name on the server
    expect(onInit.policy_version).toBe(0);
    // not the base model: the same greedy prompt gets other logprobs
    expect(Math.max(...onInit.logprobs.map((lp, i) => Math.abs(lp - (onBase.logprobs[i] ?? 0))))).toBeGreaterThan(1e-2);
  }, 600_000);
});
