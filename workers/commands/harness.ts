/**
 * `npx debugrl harness --task <task dir> --script <file.jsonl> [--toolset full|no-debugger]`: replay a scripted
 * policy against one task with no Temporal. Prints one JSON line per tool call ({tool, ok, output}) and then
 * {"grade": {…}}. Exit status 0 when the grade passed, 1 when it did not, 2 for bad usage.
 */
import { HarnessSession } from '../../harness/session';
import { readScript, runScript } from '../../harness/script';

export const summary = 'replay a JSONL tool-call script against a task in a sandbox and print observations and the grade';

export async function run(args: string[]): Promise<number> {
  const opts: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('--') || i + 1 >= args.length) {
      console.error(`debugrl harness: unexpected argument "${a}"\nusage: npx debugrl harness --task <task dir> --script <file.jsonl> [--toolset full|no-debugger]`);
      return 2;
    }
    opts[a.slice(2)] = args[++i]!;
  }
  const unknown = Object.keys(opts).filter((k) => !['task', 'script', 'toolset'].includes(k));
  if (!opts.task || !opts.script || unknown.length) {
    console.error('usage: npx debugrl harness --task <task dir> --script <file.jsonl> [--toolset full|no-debugger]');
    return 2;
  }
  if (opts.toolset && opts.toolset !== 'full' && opts.toolset !== 'no-debugger') {
    console.error(`debugrl harness: --toolset must be full or no-debugger, got "${opts.toolset}"`);
    return 2;
  }
  const calls = readScript(opts.script);
  const session = await HarnessSession.create({ taskDir: opts.task, toolset: opts.toolset as 'full' | 'no-debugger' | undefined });
  try {
    const { grade } = await runScript(session, calls, (r) => console.log(JSON.stringify({ tool: r.tool, ok: r.ok, output: r.output })));
    console.log(JSON.stringify({ grade }));
    return grade.passed ? 0 : 1;
  } finally {
    await session.close();
  }
}
