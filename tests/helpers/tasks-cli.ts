/** Runs `debugrl tasks <args>` in-process against a given tasks root, capturing what it prints. */
import { run } from '../../workers/commands/tasks';

export async function runTasksCli(tasksDir: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = jest.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const before = process.env.DEBUGRL_TASKS_DIR;
  process.env.DEBUGRL_TASKS_DIR = tasksDir;
  try {
    const code = await run(args);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
    if (before === undefined) delete process.env.DEBUGRL_TASKS_DIR;
    else process.env.DEBUGRL_TASKS_DIR = before;
  }
}
