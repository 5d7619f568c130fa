/** Shared bits of the harness suites: fixture task paths and a session that is always closed. */
import * as path from 'node:path';
import { loadConfig } from '../common/config';
import { harnessEnv } from '../harness/env';
import { HarnessSession, type HarnessLimits, type ToolResult } from '../harness/session';

export const FIXTURES = path.join(__dirname, 'fixtures', 'tasks');
export const LOCK_TASK = path.join(FIXTURES, 'reentrant_lock_hang');
export const DEFAULT_TASK = path.join(FIXTURES, 'shared_default_tags');
export const ALIAS_TASK = path.join(FIXTURES, 'nested_copy_alias');

/** The harness's host settings, from this process's configuration as an entrypoint builds them. */
export const HARNESS_ENV = harnessEnv(loadConfig());

/** Short limits so adversarial commands are cut quickly; the kill paths are the same as with the defaults. */
export const FAST: Partial<HarnessLimits> = { bashTimeoutMs: 8000, bashIdleMs: 3000, debuggerWaitS: 2 };

export async function withSession<T>(taskDir: string, fn: (s: HarnessSession) => Promise<T>, limits: Partial<HarnessLimits> = FAST): Promise<T> {
  const s = await HarnessSession.create({ env: HARNESS_ENV, taskDir, limits });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

/** Call a tool and fail the test with the observation when `ok` differs from what is expected. */
export async function expectCall(s: HarnessSession, name: string, args: Record<string, unknown>, ok: boolean): Promise<ToolResult> {
  const r = await s.call({ name, arguments: args });
  if (r.ok !== ok) throw new Error(`${name}(${JSON.stringify(args)}) returned ok=${r.ok}, expected ${ok}:\n${r.output}`);
  return r;
}
