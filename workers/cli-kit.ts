/** Small helpers every `debugrl` command uses (see the pattern in workers/cli.ts). */
import { ServiceError } from '@temporalio/client';
import { InvalidArgumentError } from 'commander';
import type { Config } from '../common/config';

/** The Temporal UI's page for a workflow (the UI started by infra/up; DEBUGRL_TEMPORAL_UI_PORT moves it). */
export const uiUrl = (config: Config, workflowId: string): string =>
  `http://127.0.0.1:${process.env.DEBUGRL_TEMPORAL_UI_PORT ?? '8233'}/namespaces/${config.DEBUGRL_TEMPORAL_NAMESPACE}/workflows/${workflowId}`;

/** A workflow's result, waited for through lost long polls: on a loaded server `result()` can end in a ServiceError
 * (DEADLINE_EXCEEDED) while the workflow runs on, so that is asked again; the workflow's own failure is thrown. */
export async function workflowResult<T>(handle: { result(): Promise<unknown> }, retryEveryMs = 2000): Promise<T> {
  for (;;) {
    try {
      return (await handle.result()) as T;
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      await new Promise((r) => setTimeout(r, retryEveryMs));
    }
  }
}

/** Wraps a command's action: its returned number becomes the process's exit status. */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<number> | number): (...args: A) => Promise<void> {
  return async (...args: A) => {
    process.exitCode = await fn(...args);
  };
}

/** An option parser for a whole number in [min, max]; a bad value is a usage error that names the option. */
export function intOption(flag: string, min: number, max: number): (value: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`${flag} needs a whole number, got "${value}"`);
    if (n < min || n > max) throw new InvalidArgumentError(`${flag} must be between ${min} and ${max}, got ${n}`);
    return n;
  };
}

/** An option parser for a number in (0, max]; a bad value is a usage error that names the option. */
export function positiveNumberOption(flag: string, max: number): (value: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (!value.trim() || !Number.isFinite(n) || n <= 0 || n > max) throw new InvalidArgumentError(`${flag} needs a number above 0 and at most ${max}, got "${value}"`);
    return n;
  };
}

/** An option parser that accepts only the listed values. */
export function choiceOption<T extends string>(flag: string, choices: readonly T[]): (value: string) => T {
  return (value: string) => {
    if (!(choices as readonly string[]).includes(value)) throw new InvalidArgumentError(`${flag} must be one of ${choices.join(', ')}, got "${value}"`);
    return value as T;
  };
}

/** An error's message and then its cause chain (`err.cause`, as Temporal nests workflow → child → activity →
 * application failures), one "caused by" per level, so the root cause of a failed workflow is on screen. */
export function describeError(err: unknown, maxDepth = 10): string {
  const lines: string[] = [];
  const seen = new Set<unknown>();
  let e: unknown = err;
  for (let depth = 0; e !== undefined && e !== null && depth < maxDepth && !seen.has(e); depth++) {
    seen.add(e);
    const text = e instanceof Error ? errorLine(e) : String(e);
    lines.push(depth === 0 ? text : `  caused by ${text}`);
    e = e instanceof Error ? e.cause : undefined;
  }
  return lines.join('\n');
}

function errorLine(e: Error): string {
  const type = (e as { type?: unknown }).type;
  const name = typeof type === 'string' && type ? `${e.name} [${type}]` : e.name;
  return `${name}: ${e.message}`;
}
