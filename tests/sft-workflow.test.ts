/** SftWorkflow on real Temporal with the real learner service and SmolLM2: epochs, held-out loss per epoch, and
 * resuming from the epochs already on disk. The corpus is tiny (a few short examples) so it runs on a CPU. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from '@temporalio/worker';
import { createSftTrainActivities } from '../activities/learner';
import { loadConfig } from '../common/config';
import { temporalClient, uniqueQueue, workerConnection, workflowBundle } from './helpers/services';

const config = loadConfig();

function corpus(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sft-corpus-'));
  const reply = [28, 7279, 81, 3858, 30, 4419, 2];
  const ex = (i: number) => ({ example_id: `e${i}`, token_ids: [1, 100 + i, 200 + i, 300 + i, ...reply], assistant_mask: [false, false, false, false, ...reply.map(() => true)] });
  fs.writeFileSync(path.join(dir, 'train.tokens.jsonl'), [0, 1, 2, 3].map((i) => JSON.stringify(ex(i))).join('\n') + '\n');
  fs.writeFileSync(path.join(dir, 'heldout.tokens.jsonl'), [8, 9].map((i) => JSON.stringify(ex(i))).join('\n') + '\n');
  return dir;
}

test('SftWorkflow trains epochs on the gpu queue, reports held-out loss, and resumes finished epochs', async () => {
  const taskQueue = uniqueQueue('sft-wf');
  const gpuQueue = `${taskQueue}-gpu`;
  const connection = await workerConnection();
  const wf = await Worker.create({ connection, taskQueue, workflowBundle: await workflowBundle() });
  const gpu = await Worker.create({ connection, taskQueue: gpuQueue, activities: createSftTrainActivities({ config }), maxConcurrentActivityTaskExecutions: 1 });
  const { client, connection: cc } = await temporalClient();
  const dir = corpus();
  const workflowId = `${taskQueue}-run`;
  const input = { corpusDir: dir, epochs: 2, lr: 5e-3, batchExamples: 2, warmupSteps: 0, loraRank: 4, learnerTaskQueue: gpuQueue, publish: false };
  try {
    const first = await Promise.race([
      Promise.all([wf.run(), gpu.run()]).then(() => null),
      client.workflow.execute('SftWorkflow', { taskQueue, workflowId, args: [input] }),
    ]);
    expect(first).not.toBeNull();
    const r = first as { epochs: { epoch: number; steps: number; heldOutLoss: number; trainLoss: number }[]; chosenEpoch: number };
    expect(r.epochs.map((e) => [e.epoch, e.steps])).toEqual([[1, 2], [2, 2]]);
    for (const e of r.epochs) expect(Number.isFinite(e.heldOutLoss) && e.heldOutLoss > 0).toBe(true);
    // the held-out examples share the trained reply, so a few steps at this rate lower their loss
    expect(r.epochs[1]!.heldOutLoss).toBeLessThan(r.epochs[0]!.heldOutLoss);
    // resume: epoch 2 is lost; a rerun takes epoch 1 from disk as it was and trains epoch 2 again
    const runDir = path.join(config.DEBUGRL_DATA_DIR, 'sft', workflowId);
    fs.rmSync(path.join(runDir, 'epoch-2.json'));
    const again = (await client.workflow.execute('SftWorkflow', { taskQueue, workflowId, args: [input] })) as typeof r;
    expect(again.epochs[0]).toEqual(r.epochs[0]);
    expect(fs.existsSync(path.join(runDir, 'epoch-2', 'adapter_model.safetensors'))).toBe(true);
    // bad input: a folder with no corpus fails at once with a clear error
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'sft-empty-'));
    await expect(client.workflow.execute('SftWorkflow', { taskQueue, workflowId: `${workflowId}-empty`, args: [{ ...input, corpusDir: empty }] })).rejects.toThrow();
    const h = client.workflow.getHandle(`${workflowId}-empty`);
    await expect(h.result()).rejects.toMatchObject({ cause: { cause: { message: expect.stringContaining('no train.tokens.jsonl examples') } } });
  } finally {
    wf.shutdown();
    gpu.shutdown();
    await cc.close();
  }
}, 900_000);
