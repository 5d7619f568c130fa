/**
 * `npx debugrl replay <episode-id>`: re-run a stored episode's tool calls in a fresh sandbox and report where the
 * observations differ (exit 1 if any do, or if the grade changed).
 * `npx debugrl replay --workflow <workflow-id>`: fetch the workflow's history from Temporal and replay it against the
 * current workflow code (exit 1 on a determinism error).
 */
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { Pool } from 'pg';
import { loadConfig } from '../../common/config';
import { loadRecord, replayEpisode } from '../replay-episode';

export const summary = 'replay a stored episode in a fresh sandbox, or a workflow history against the current code';

const USAGE = 'usage: npx debugrl replay <episode-id> | npx debugrl replay --workflow <workflow-id> [--run <run-id>]';

export async function run(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { workflow: { type: 'string' }, run: { type: 'string' } } });
  } catch (e) {
    console.error(`debugrl replay: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const config = loadConfig();
  const { values, positionals } = parsed;
  if (values.workflow) {
    const connection = await Connection.connect({ address: config.DEBUGRL_TEMPORAL_ADDRESS });
    try {
      const client = new Client({ connection, namespace: config.DEBUGRL_TEMPORAL_NAMESPACE });
      const history = await client.workflow.getHandle(values.workflow, values.run).fetchHistory();
      try {
        await Worker.runReplayHistory({ workflowsPath: require.resolve('../../workflows') }, history, values.workflow);
      } catch (e) {
        console.log(JSON.stringify({ workflowId: values.workflow, deterministic: false, error: (e as Error).message }));
        return 1;
      }
      console.log(JSON.stringify({ workflowId: values.workflow, deterministic: true, events: history.events?.length ?? 0 }));
      return 0;
    } finally {
      await connection.close();
    }
  }
  if (positionals.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  const pool = new Pool({ connectionString: config.DEBUGRL_DATABASE_URL });
  try {
    const record = await loadRecord(pool, positionals[0]);
    const report = await replayEpisode(record, config.DEBUGRL_TASKS_DIR, (s) =>
      console.error(`  turn ${String(s.turn).padStart(3)} ${s.tool.padEnd(20)} ${s.same ? 'same' : 'DIFFERENT'}`),
    );
    console.log(JSON.stringify(report, null, 2));
    return report.diffs.length === 0 && report.grade.stored === report.grade.replayed ? 0 : 1;
  } finally {
    await pool.end();
  }
}
