/** `npx debugrl sft build --from <evaluation ids…> --out <dir>`: an SFT corpus from stored trajectories (see
 * activities/sft.ts for the folder), and `npx debugrl sft train --corpus <dir>`: SftWorkflow on the `gpu` queue. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { Pool } from 'pg';
import { checkModelDir, type SftEpochResult } from '../../activities/learner';
import { buildSftCorpus, SftInputError } from '../../activities/sft';
import { loadConfig } from '../../common/config';
import { pgConnectionString, temporalConnectionOptions } from '../../common/connections';
import { SftEpochs } from '../../common/sft-settings';
import { SftFilterConfig } from '../../common/sft-filters';
import { Client, Connection, WorkflowExecutionAlreadyStartedError, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { SftResult } from '../../workflows/sft';
import { action, describeError, intOption, positiveNumberOption, uiUrl, workflowResult } from '../cli-kit';

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

type SftEpochLine = Pick<SftEpochResult, 'epoch' | 'trainLoss' | 'heldOutLoss'>;

/** One line of progress: finished epochs from the workflow's `progress` query, the running epoch's step from the
 * sftEpoch activity's last heartbeat (activities/learner/sft-epoch.ts). */
export function formatSftProgress(epochs: number, done: SftEpochLine[], beat: Record<string, unknown> | null): string {
  const parts = [`${done.length}/${epochs} epoch(s) done`];
  const last = done.at(-1);
  if (last) parts.push(`epoch ${last.epoch}: train loss ${last.trainLoss.toFixed(4)}, held-out ${last.heldOutLoss?.toFixed(4) ?? 'n/a'}`);
  if (beat && typeof beat.epoch === 'number' && beat.epoch > done.length) {
    const step = typeof beat.step === 'number' && typeof beat.of === 'number' ? ` step ${beat.step}/${beat.of}` : '';
    const loss = typeof beat.meanLoss === 'number' ? `, mean loss so far ${beat.meanLoss.toFixed(4)}` : '';
    parts.push(`running epoch ${beat.epoch}${step} (${String(beat.phase ?? 'running')}${loss})`);
  }
  return parts.join(' · ');
}

async function lastHeartbeat(handle: WorkflowHandle): Promise<Record<string, unknown> | null> {
  const d = await handle.describe();
  const payload = d.raw.pendingActivities?.[0]?.heartbeatDetails?.payloads?.[0];
  if (!payload) return null;
  const v = defaultPayloadConverter.fromPayload<unknown>(payload);
  return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
}

async function train(o: { corpus: string; epochs?: number; lr?: number; batch?: number; model?: string; id?: string; queue: string; publish: boolean }): Promise<number> {
  const config = loadConfig();
  const corpusDir = path.resolve(o.corpus);
  if (!fs.existsSync(path.join(corpusDir, 'train.tokens.jsonl'))) {
    console.error(`debugrl sft train: ${corpusDir} has no train.tokens.jsonl; pass a folder written by \`debugrl sft build\``);
    return 2;
  }
  const modelDir = o.model ? path.resolve(o.model) : undefined;
  if (modelDir) {
    try {
      checkModelDir(config.DEBUGRL_PYTHON, modelDir); // the learner reads its architecture; a bad directory ends here
    } catch (e) {
      console.error(`debugrl sft train: --model ${modelDir}: ${(e as Error).message}`);
      return 2;
    }
  }
  const connection = await Connection.connect(temporalConnectionOptions(config));
  try {
    const client = new Client({ connection, namespace: config.DEBUGRL_TEMPORAL_NAMESPACE });
    const input = {
      corpusDir,
      learnerTaskQueue: o.queue,
      publish: o.publish,
      ...(o.epochs !== undefined ? { epochs: o.epochs } : {}),
      ...(o.lr !== undefined ? { lr: o.lr } : {}),
      ...(o.batch !== undefined ? { batchExamples: o.batch } : {}),
      ...(modelDir ? { modelDir } : {}),
    };
    const workflowId = o.id ?? `sft-${Date.now()}`;
    let handle: WorkflowHandle;
    try {
      handle = await client.workflow.start('SftWorkflow', { taskQueue: config.DEBUGRL_TASK_QUEUE, workflowId, args: [input] });
      console.log(`SftWorkflow ${workflowId} started (activities on queue "${o.queue}") — Temporal UI: ${uiUrl(config, workflowId)}`);
    } catch (e) {
      if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
      handle = client.workflow.getHandle(workflowId);
      console.log(`SftWorkflow ${workflowId} is already running; following it — Temporal UI: ${uiUrl(config, workflowId)}`);
    }
    const epochs = SftEpochs.parse(o.epochs); // the workflow's count, until its progress query answers
    let finished = false;
    const done = workflowResult<SftResult>(handle).finally(() => (finished = true));
    done.catch(() => undefined);
    let lastLine = '';
    let lastAt = 0;
    while (!finished) {
      await Promise.race([done.catch(() => undefined), new Promise((r) => setTimeout(r, 3000))]);
      if (finished) break;
      const p = await handle.query<{ epochsPlanned?: number; epochs: SftEpochLine[] }>('progress').catch(() => null);
      const beat = await lastHeartbeat(handle).catch(() => null);
      if (!p) continue;
      const line = formatSftProgress(p.epochsPlanned ?? epochs, p.epochs, beat);
      // a line per change, and at least one a minute while a long step runs
      if (line !== lastLine || Date.now() - lastAt > 60_000) {
        console.log(line);
        lastLine = line;
        lastAt = Date.now();
      }
    }
    try {
      const r = await done;
      for (const e of r.epochs) console.log(`  epoch ${e.epoch}: train loss ${e.trainLoss.toFixed(4)}, held-out loss ${e.heldOutLoss?.toFixed(4) ?? 'n/a'}`);
      console.log(`chosen epoch ${r.chosenEpoch}${r.adapter ? `, published as ${r.adapter.name} (evaluate it with --policy embedded:${r.adapter.name})` : ''}`);
      return 0;
    } catch (e) {
      console.error(`SftWorkflow ${workflowId} failed\n${describeError(e instanceof WorkflowFailedError && e.cause ? e.cause : e)}`);
      return 1;
    }
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
    .description('Start SftWorkflow: LoRA on SmolLM2 (or --model DIR), assistant-only NLL, held-out loss per epoch, the best epoch published to the embedded server as sft-v<N>. Needs the GPU activity worker (node lib/workers/learner-worker.js).')
    .requiredOption('--corpus <dir>', 'a folder written by `debugrl sft build`')
    .option('--epochs <n>', 'epochs (default 3)', intOption('--epochs', 1, 100))
    .option('--lr <rate>', "peak learning rate (default: the learner's, 2e-4)", positiveNumberOption('--lr', 1))
    .option('--batch <n>', "examples per optimizer step (default: the learner's, 8)", intOption('--batch', 1, 4096))
    .option('--model <dir>', 'fine-tune this local checkpoint directory (config.json, safetensors, tokenizer) instead of the embedded SmolLM2')
    .option('--id <workflow id>', 'the workflow id (a rerun with the same id resumes its finished epochs)')
    .option('--queue <name>', 'the GPU worker queue', 'gpu')
    .option('--no-publish', 'do not load the adapter on the embedded server')
    .action(action(train));
}
