/** `npx debugrl sft build --from <evaluation ids…> --out <dir>`: an SFT corpus from stored trajectories (see
 * activities/sft.ts for the folder), and `npx debugrl sft train --corpus <dir>`: SftWorkflow on the `gpu` queue. */
import * as path from 'node:path';
import type { Command } from 'commander';
import { Pool } from 'pg';
import { buildSftCorpus, SftInputError } from '../../activities/sft';
import { loadConfig } from '../../common/config';
import { pgConnectionString, temporalConnectionOptions } from '../../common/connections';
import { SftFilterConfig } from '../../common/sft-filters';
import { Client, Connection } from '@temporalio/client';
import { action, intOption } from '../cli-kit';

interface BuildOptions {
  from: string[];
  out: string;
  perTaskCap?: number;
  generation?: number;
  mergeFrom?: string;
  heldOut?: string;
  microskills: boolean;
  filters?: string;
  replace?: boolean;
}

async function build(o: BuildOptions): Promise<number> {
  const config = loadConfig();
  let filters;
  try {
    filters = SftFilterConfig.parse(o.filters ? JSON.parse(o.filters) : {});
  } catch (e) {
    console.error(`debugrl sft build: --filters must be a JSON object of thresholds (${(e as Error).message})`);
    return 2;
  }
  const pool = new Pool({ connectionString: pgConnectionString(config) });
  try {
    const s = await buildSftCorpus(
      { pool, config },
      {
        evaluationIds: o.from,
        outDir: o.out,
        filters,
        microskills: o.microskills,
        replace: !!o.replace,
        ...(o.perTaskCap !== undefined ? { perTaskCap: o.perTaskCap } : {}),
        ...(o.generation !== undefined ? { generation: o.generation } : {}),
        ...(o.mergeFrom ? { mergeFrom: o.mergeFrom } : {}),
        ...(o.heldOut !== undefined ? { heldOutFraction: Number(o.heldOut) } : {}),
      },
    );
    console.log(`corpus ${s.outDir}: ${s.examples} examples (${s.trajectories} trajectories, ${s.microskills} microskills), ${s.train} train, ${s.heldOut} held out, from ${s.candidates} episodes`);
    for (const [r, n] of Object.entries(s.rejections)) if (n) console.log(`  rejected ${r}: ${n}`);
    for (const [src, n] of Object.entries(s.bySource)) console.log(`  ${src}: ${n}`);
    console.log(`report: ${s.outDir}/report.md`);
    return 0;
  } catch (e) {
    console.error(`debugrl sft build: ${(e as Error).message}`);
    return e instanceof SftInputError ? 2 : 1;
  } finally {
    await pool.end();
  }
}

async function train(o: { corpus: string; epochs?: number; lr?: string; batch?: number; id?: string; queue: string; publish: boolean }): Promise<number> {
  const config = loadConfig();
  const connection = await Connection.connect(temporalConnectionOptions(config));
  try {
    const client = new Client({ connection, namespace: config.DEBUGRL_TEMPORAL_NAMESPACE });
    const input = {
      corpusDir: path.resolve(o.corpus),
      learnerTaskQueue: o.queue,
      publish: o.publish,
      ...(o.epochs !== undefined ? { epochs: o.epochs } : {}),
      ...(o.lr !== undefined ? { lr: Number(o.lr) } : {}),
      ...(o.batch !== undefined ? { batchExamples: o.batch } : {}),
    };
    const workflowId = o.id ?? `sft-${Date.now()}`;
    const handle = await client.workflow.start('SftWorkflow', { taskQueue: config.DEBUGRL_TASK_QUEUE, workflowId, args: [input] });
    console.log(`SftWorkflow ${workflowId} started (activities on queue "${o.queue}"); waiting…`);
    const r = (await handle.result()) as { epochs: { epoch: number; trainLoss: number; heldOutLoss: number | null }[]; chosenEpoch: number; adapter: { name: string } | null };
    for (const e of r.epochs) console.log(`  epoch ${e.epoch}: train loss ${e.trainLoss.toFixed(4)}, held-out loss ${e.heldOutLoss?.toFixed(4) ?? 'n/a'}`);
    console.log(`chosen epoch ${r.chosenEpoch}${r.adapter ? `, published as ${r.adapter.name}` : ''}`);
    return 0;
  } finally {
    await connection.close();
  }
}

export function register(program: Command): void {
  const sft = program.command('sft').summary('build SFT corpora from stored trajectories and fine-tune on them');
  sft
    .command('build')
    .summary('build an SFT corpus folder from evaluations')
    .description('Select passing trajectories of the evaluations from PostgreSQL, apply the behavioural filters, interleave shortest and longest per task, add microskills, and write chat JSONL (TRL) and tokenized examples with assistant-only masks.')
    .requiredOption('--from <evaluation-ids...>', 'evaluations whose episodes to harvest')
    .requiredOption('--out <dir>', 'the corpus folder to write (written whole or not at all)')
    .option('--per-task-cap <n>', 'most trajectories per task (default 4)', intOption('--per-task-cap', 1, 1000))
    .option('--generation <n>', 'STaR generation recorded in the provenance (default 0)', intOption('--generation', 0, 1000))
    .option('--merge-from <dir>', 'an earlier corpus folder whose examples are kept, with their provenance')
    .option('--held-out <fraction>', 'share of trajectories held out for eval loss (default 0.1, the seed: 35 of 347)')
    .option('--no-microskills', 'leave out the microskill examples')
    .option('--filters <json>', 'filter thresholds, e.g. {"maxDebuggerShare":0.6}')
    .option('--replace', 'replace an existing folder at --out')
    .action(action(build));
  sft
    .command('train')
    .summary('fine-tune on a corpus folder (SftWorkflow on the gpu queue)')
    .description('Start SftWorkflow: LoRA on SmolLM2, assistant-only NLL, held-out loss per epoch, the best epoch published to the embedded server as sft-v<N>. Needs the GPU activity worker (node lib/workers/learner-worker.js).')
    .requiredOption('--corpus <dir>', 'a folder written by `debugrl sft build`')
    .option('--epochs <n>', 'epochs (default 3)', intOption('--epochs', 1, 100))
    .option('--lr <rate>', 'peak learning rate (default 2e-4)')
    .option('--batch <n>', 'examples per optimizer step (default 8)', intOption('--batch', 1, 4096))
    .option('--id <workflow id>', 'the workflow id (a rerun with the same id resumes its finished epochs)')
    .option('--queue <name>', 'the GPU worker queue', 'gpu')
    .option('--no-publish', 'do not load the adapter on the embedded server')
    .action(action(train));
}
