/**
 * `npx debugrl eval --policy <spec> (--split <split> | --tasks a,b) [--episodes 8] [--k 3] [--compare <spec>]
 *   [--tools full|no-debugger|both] [--max-tasks N] [--max-turns 50] [--max-context 30000] [--max-new-tokens 1024]
 *   [--concurrency 4] [--id <id>]
 *   [--detach]`
 * Starts an EvaluationWorkflow, shows a live progress bar (from the workflow's `progress` query) and prints the summary
 * and where the report is. The same evaluation can be started with
 *   temporal workflow start --type EvaluationWorkflow --task-queue debugrl --input '{"policy":"…","split":"test"}'
 */
import { parseArgs } from 'node:util';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { describeZodError } from '../../common/boundary';
import { loadConfig } from '../../common/config';
import { EvaluationInput, type EvaluationProgress, type EvaluationResult } from '../../common/evaluation';

export const summary = 'evaluate a policy (pass@k, turns, debugger use, failures) and write the report';

const USAGE = `usage: npx debugrl eval --policy <spec> (--split train|validation|test | --tasks id,id) [--episodes 8] [--k 3]
       [--compare <spec>] [--tools full|no-debugger|both] [--max-tasks N] [--max-turns 50] [--max-context 30000]
       [--max-new-tokens 1024] [--concurrency 4] [--id <evaluation id>] [--detach]`;

export function formatProgress(p: EvaluationProgress, nowMs: number): string {
  const width = 30;
  const frac = p.total ? p.done / p.total : 0;
  const bar = '█'.repeat(Math.round(frac * width)).padEnd(width, '░');
  const elapsed = (nowMs - p.startedAtMs) / 1000;
  const eta = p.done > 0 && p.done < p.total ? ((elapsed / p.done) * (p.total - p.done)) : null;
  const fmt = (s: number) => (s >= 60 ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${Math.round(s)}s`);
  return `[${bar}] ${p.done}/${p.total} done · ${p.running} running · ${p.failed} failed · ${p.passed} passed · ${p.phase === 'running' ? `ETA ${eta === null ? '…' : fmt(eta)}` : p.phase}`;
}

export async function run(args: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        policy: { type: 'string' }, split: { type: 'string' }, tasks: { type: 'string' }, episodes: { type: 'string' }, k: { type: 'string' },
        compare: { type: 'string' }, tools: { type: 'string' }, 'max-tasks': { type: 'string' }, 'max-turns': { type: 'string' },
        'max-context': { type: 'string' }, 'max-new-tokens': { type: 'string' }, concurrency: { type: 'string' }, id: { type: 'string' }, detach: { type: 'boolean' },
      },
    }));
  } catch (e) {
    console.error(`debugrl eval: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const int = (s: string | undefined) => (s === undefined ? undefined : Number(s));
  const raw = {
    policy: values.policy,
    ...(values.split ? { split: values.split } : {}),
    ...(values.tasks ? { taskIds: values.tasks.split(',').map((t) => t.trim()).filter(Boolean) } : {}),
    ...(values.episodes ? { episodesPerTask: int(values.episodes) } : {}),
    ...(values.k ? { k: int(values.k) } : {}),
    ...(values.compare ? { compare: values.compare } : {}),
    ...(values.tools ? { toolset: values.tools } : {}),
    ...(values['max-tasks'] ? { maxTasks: int(values['max-tasks']) } : {}),
    ...(values['max-turns'] || values['max-context'] || values['max-new-tokens']
      ? {
          limits: {
            ...(values['max-turns'] ? { maxTurns: int(values['max-turns']) } : {}),
            ...(values['max-context'] ? { maxContextTokens: int(values['max-context']) } : {}),
            ...(values['max-new-tokens'] ? { maxNewTokens: int(values['max-new-tokens']) } : {}),
          },
        }
      : {}),
    ...(values.concurrency ? { concurrency: int(values.concurrency) } : {}),
    ...(values.id ? { evaluationId: values.id } : {}),
  };
  const parsed = EvaluationInput.safeParse(raw);
  if (!parsed.success) {
    console.error(`debugrl eval: ${describeZodError(parsed.error)}\n${USAGE}`);
    return 2;
  }
  const config = loadConfig();
  const workflowId = values.id ?? `eval-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}`;
  const connection = await Connection.connect({ address: config.DEBUGRL_TEMPORAL_ADDRESS });
  try {
    const client = new Client({ connection, namespace: config.DEBUGRL_TEMPORAL_NAMESPACE });
    const handle = await client.workflow.start('EvaluationWorkflow', { taskQueue: config.DEBUGRL_TASK_QUEUE, workflowId, args: [raw] });
    const ui = `http://127.0.0.1:${process.env.DEBUGRL_TEMPORAL_UI_PORT ?? '8233'}/namespaces/${config.DEBUGRL_TEMPORAL_NAMESPACE}/workflows/${workflowId}`;
    console.log(`evaluation ${workflowId} started — Temporal UI: ${ui}`);
    if (values.detach) return 0;

    const tty = process.stdout.isTTY;
    let lastLine = 0;
    const done = handle.result() as Promise<EvaluationResult>;
    let finished = false;
    done.then(() => (finished = true), () => (finished = true));
    while (!finished) {
      await Promise.race([done.catch(() => undefined), new Promise((r) => setTimeout(r, 2000))]);
      if (finished) break;
      try {
        const p = await handle.query<EvaluationProgress>('progress');
        const line = formatProgress(p, Date.now());
        if (tty) process.stdout.write(`\r${line}`);
        else if (Date.now() - lastLine > 10_000) {
          console.log(line);
          lastLine = Date.now();
        }
      } catch {
        // the workflow may not have started its handler yet, or the server is restarting: try again next tick
      }
    }
    if (tty) process.stdout.write('\n');
    let result: EvaluationResult;
    try {
      result = await done;
    } catch (e) {
      const cause = e instanceof WorkflowFailedError && e.cause ? `: ${e.cause.message}` : '';
      console.error(`evaluation ${workflowId} failed${cause}`);
      return 1;
    }
    const pct = (v: number | null) => (v === null ? 'n/a' : `${(100 * v).toFixed(1)}%`);
    for (const a of result.arms) console.log(`  ${a.label.padEnd(40)} pass@1 ${pct(a.passAt1).padStart(6)}  pass@${result.k} ${pct(a.passAtK).padStart(6)}  (${a.episodes} episodes)`);
    if (result.failedEpisodes) console.log(`  ${result.failedEpisodes} episode workflow(s) failed outright; see the Temporal UI`);
    console.log(`report: ${result.reportDir}/report.html (also report.md, report.json)`);
    console.log(`Temporal UI: ${ui}`);
    return 0;
  } finally {
    await connection.close();
  }
}
