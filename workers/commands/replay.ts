/**
 * `npx debugrl replay <episode-id>`: re-run a stored episode's tool calls in a fresh sandbox and report where the
 * observations differ (exit 1 if any do, or if the grade changed).
 * `npx debugrl replay --workflow <workflow-id> [--run <run-id>]`: fetch the workflow's history from Temporal and
 * replay it against the current workflow code (exit 1 on a determinism error).
 */
import { Client, Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import type { Command } from 'commander';
import { Pool } from 'pg';
import { loadConfig, type Config } from '../../common/config';
import { pgConnectionString, temporalConnectionOptions } from '../../common/connections';
import { action } from '../cli-kit';
import { harnessEnv } from '../../harness/env';
import { loadRecord, replayEpisode } from '../replay-episode';

async function replayWorkflow(config: Config, workflowId: string, runId: string | undefined): Promise<number> {
  const connection = await Connection.connect(temporalConnectionOptions(config));
  try {
    const client = new Client({ connection, namespace: config.DEBUGRL_TEMPORAL_NAMESPACE });
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    try {
      await Worker.runReplayHistory({ workflowsPath: require.resolve('../../workflows') }, history, workflowId);
    } catch (e) {
      console.log(JSON.stringify({ workflowId, deterministic: false, error: (e as Error).message }));
      return 1;
    }
    console.log(JSON.stringify({ workflowId, deterministic: true, events: history.events?.length ?? 0 }));
    return 0;
  } finally {
    await connection.close();
  }
}

async function replayStoredEpisode(config: Config, episodeId: string): Promise<number> {
  const pool = new Pool({ connectionString: pgConnectionString(config) });
  try {
    const record = await loadRecord(pool, episodeId);
    const report = await replayEpisode(record, harnessEnv(config), (s) =>
      console.error(`  turn ${String(s.turn).padStart(3)} ${s.tool.padEnd(20)} ${s.same ? 'same' : 'DIFFERENT'}`),
    );
    console.log(JSON.stringify(report, null, 2));
    return report.diffs.length === 0 && report.grade.stored === report.grade.replayed ? 0 : 1;
  } finally {
    await pool.end();
  }
}

export function register(program: Command): void {
  program
    .command('replay')
    .summary('replay a stored episode in a fresh sandbox, or a workflow history against the current code')
    .description(
      'replay <episode-id>: re-run its tool calls in a fresh sandbox and list the observations that differ.\n' +
        'replay --workflow <workflow-id>: replay its Temporal history against the current workflow code.\n' +
        'Exit status 1 when something differs or a determinism error is found.',
    )
    .argument('[episode-id]')
    .option('--workflow <workflow-id>', 'replay this workflow history instead of an episode')
    .option('--run <run-id>', 'with --workflow: a particular run')
    .action(
      action((episodeId: string | undefined, o: { workflow?: string; run?: string }, cmd: Command) => {
        if (o.workflow && episodeId) cmd.error('debugrl replay: give an episode id or --workflow, not both', { exitCode: 2 });
        if (o.workflow) return replayWorkflow(loadConfig(), o.workflow, o.run);
        if (!episodeId) cmd.error('debugrl replay: give an episode id, or --workflow <workflow-id>', { exitCode: 2 });
        return replayStoredEpisode(loadConfig(), episodeId);
      }),
    );
}
