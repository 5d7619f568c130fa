/** Proof of what is served: an episode that asks for a published training adapter (policy-v<N>) and is answered by
 * a different version fails loudly, naming both, instead of training on silently stale rollouts. Real embedded server,
 * real Temporal, a real PEFT adapter written by the learner's own save_adapter. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EpisodeWorkflow } from '../workflows/episode';
import { fixtureConfig, inProcessWorkers, type InProcessWorkers } from './helpers/episodes';
import { quietRuntime, temporalClient } from './helpers/services';

const NAME = 'policy-v999';

/** A SmolLM2 LoRA adapter (non-zero B, so it changes the model) whose metadata says policy version 3. */
function writeAdapter(dir: string): void {
  const script = `
import sys, torch
from pathlib import Path
from transformers import AutoModelForCausalLM
from debugrl_native.learner.config import LoraConfig
from debugrl_native.learner.lora import apply_lora, lora_parameters, save_adapter
m = AutoModelForCausalLM.from_pretrained(sys.argv[1])
cfg = LoraConfig(rank=2, alpha=4.0)
apply_lora(m, cfg)
torch.manual_seed(0)
with torch.no_grad():
    for p in lora_parameters(m).values():
        p.add_(torch.randn_like(p) * 0.01)
save_adapter(m, Path(sys.argv[2]), 3, cfg, "smollm2")
`;
  const r = spawnSync(fixtureConfig.DEBUGRL_PYTHON, ['-c', script, path.join(fixtureConfig.DEBUGRL_DATA_DIR, 'models', 'smollm2-135m-instruct'), dir], { cwd: path.resolve(__dirname, '../native'), encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`writing the adapter failed: ${r.stderr.slice(-2000)}`);
}

async function post(route: string, body: unknown): Promise<number> {
  const res = await fetch(`${fixtureConfig.DEBUGRL_EMBEDDED_URL}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.text();
  return res.status;
}

describe('served adapter version (real embedded server)', () => {
  let w: InProcessWorkers;
  beforeAll(async () => {
    quietRuntime();
    w = await inProcessWorkers('train-adapters');
  });
  afterAll(async () => {
    await post('/unload_lora_adapter', { lora_name: NAME }).catch(() => undefined);
    await w.close();
  }, 600_000); // the shared server may be busy generating for others: the unload waits for its lock

  it('fails an episode whose adapter is served under another version, naming both', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-adapter-')), 'v3');
    writeAdapter(dir);
    expect(await post('/load_lora_adapter', { lora_name: NAME, lora_path: dir })).toBe(200);
    const { client, connection } = await temporalClient();
    try {
      const result = await w.run(
        client.workflow.execute(EpisodeWorkflow, {
          taskQueue: w.taskQueue,
          workflowId: `train-adapters-${Date.now()}`,
          args: [{ taskId: 'shared_default_tags', policy: `embedded:${NAME}`, toolset: 'no-debugger', limits: { maxTurns: 1, maxNewTokens: 32 } }],
        }),
      );
      expect(result.exitReason).toBe('error');
      expect(result.error).toMatch(/adapter mismatch: asked for embedded:policy-v999, the server says it used policy version 3/);
    } finally {
      await connection.close();
    }
  }, 600_000);
});
