/**
 * `npx debugrl harness --task <task dir> --script <file.jsonl> [--toolset full|no-debugger]`: replay a scripted
 * policy against one task with no Temporal. Prints one JSON line per tool call ({tool, ok, output}) and then
 * {"grade": {…}}. Exit status 0 when the grade passed, 1 when it did not, 2 for bad usage or an unreadable script.
 */
import type { Command } from 'commander';
import { loadConfig } from '../../common/config';
import { harnessEnv } from '../../harness/env';
import { HarnessSession } from '../../harness/session';
import { readScript, runScript, ScriptError } from '../../harness/script';
import { action, choiceOption } from '../cli-kit';

async function run(o: { task: string; script: string; toolset?: 'full' | 'no-debugger' }): Promise<number> {
  let calls;
  try {
    calls = readScript(o.script);
  } catch (e) {
    if (!(e instanceof ScriptError)) throw e;
    console.error(`debugrl harness: ${e.message}`);
    return 2;
  }
  const session = await HarnessSession.create({ env: harnessEnv(loadConfig()), taskDir: o.task, toolset: o.toolset });
  // Killed from outside (Ctrl-C, a timeout's SIGTERM): stop the sandbox's processes and delete its folder, then exit
  // 128 + signal. The call in flight fails meanwhile; `stopping` keeps that failure from exiting first.
  let stopping: Promise<void> | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    stopping ??= session.close().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.on('SIGINT', onSignal); // `on`, not `once`: a second signal during the clean-up must not cut it short
  process.on('SIGTERM', onSignal);
  try {
    const { grade } = await runScript(session, calls, (r) => console.log(JSON.stringify({ tool: r.tool, ok: r.ok, output: r.output })));
    console.log(JSON.stringify({ grade }));
    return grade.passed ? 0 : 1;
  } finally {
    if (stopping) await stopping;
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await session.close();
  }
}

export function register(program: Command): void {
  program
    .command('harness')
    .summary('replay a JSONL tool-call script against a task in a sandbox and print observations and the grade')
    .description('Run the episode harness alone, without Temporal: one JSON line per tool call, then the grade. Exit status 0 passed, 1 failed, 2 bad usage.')
    .requiredOption('--task <task dir>', 'a task folder (tasks/<id>)')
    .requiredOption('--script <file.jsonl>', 'tool calls, one {"name", "arguments"} per line')
    .option('--toolset <set>', 'full or no-debugger (default full)', choiceOption('--toolset', ['full', 'no-debugger'] as const))
    .action(action(run));
}
