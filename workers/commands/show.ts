/** `npx debugrl show <episode-id>`: one episode turn by turn in the terminal, in colour where the terminal supports it. */
import { styleText } from 'node:util';
import type { Command } from 'commander';
import { Pool } from 'pg';
import { loadConfig } from '../../common/config';
import { pgConnectionString } from '../../common/connections';
import { action, intOption } from '../cli-kit';
import { getEpisode, NotFound } from '../viewer/store';

type Style = Parameters<typeof styleText>[0];

async function run(episodeId: string, o: { maxLines: number; color?: boolean }): Promise<number> {
  const color = o.color ?? (process.stdout.isTTY && !process.env.NO_COLOR);
  const paint = (style: Style, s: string) => (color ? styleText(style, s) : s);
  const clip = (s: string) => {
    const lines = s.split('\n');
    return lines.length <= o.maxLines ? s : `${lines.slice(0, o.maxLines).join('\n')}\n… ${lines.length - o.maxLines} more lines`;
  };
  const pool = new Pool({ connectionString: pgConnectionString(loadConfig()), max: 1 });
  try {
    const ep = await getEpisode(pool, episodeId);
    const s = ep.start;
    console.log(paint('bold', `episode ${ep.episodeId}`) + `  task ${s.taskId} (${s.split})  policy ${s.policy}  tools ${s.toolset}  seed ${s.seed}`);
    const rec = new Map(ep.recoveries.map((r) => [r.beforeTurn, r]));
    for (const { turn, assistant, tool } of ep.turns) {
      const r = rec.get(turn);
      if (r) console.log(paint('yellow', `  [sandbox recovery: ${r.reason}; ${r.reappliedCalls} calls re-applied]`));
      const call = assistant.toolCall;
      const head = call ? `${call.name} ${JSON.stringify(call.arguments).slice(0, 200)}` : paint('red', `no valid call: ${assistant.invalidReason ?? ''}`);
      console.log(`${paint('cyan', `── turn ${turn}`)} ${head}`);
      if (assistant.message.role === 'assistant' && assistant.message.content) console.log(paint('dim', clip(assistant.message.content)));
      if (tool) console.log(paint(tool.ok ? 'green' : 'red', clip(tool.output)));
    }
    if (ep.live) console.log(paint('yellow', 'still running'));
    else console.log(paint('bold', `outcome: ${ep.outcome?.passed ? 'pass' : 'fail'} (${ep.outcome?.exitReason})${ep.outcome?.error ? ` error: ${ep.outcome.error}` : ''}`));
    return 0;
  } catch (e) {
    if (e instanceof NotFound) {
      console.error(`debugrl show: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    await pool.end();
  }
}

export function register(program: Command): void {
  program
    .command('show')
    .summary('print one episode turn by turn')
    .argument('<episode-id>')
    .option('--max-lines <n>', 'lines shown per observation', intOption('--max-lines', 1, 100000), 40)
    .option('--color', 'colour even when stdout is not a terminal')
    .option('--no-color', 'never colour')
    .action(action(run));
}
