/**
 * Scripted policies: a JSONL file of tool calls, one `{"name": …, "arguments": {…}}` per line, replayed in order.
 * It is how tests drive the harness, how a recorded episode is re-run, and what `npx debugrl harness` reads.
 * Blank lines and lines starting with `//` are skipped, so scripts can carry comments.
 */
import * as fs from 'node:fs';
import { z } from 'zod';
import type { Grade, HarnessSession, ToolCall, ToolResult } from './session';

const ScriptLine = z
  .object({
    name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

export class ScriptError extends Error {}

export function parseScript(text: string, source = 'script'): ToolCall[] {
  const calls: ToolCall[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('//')) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      throw new ScriptError(`${source}:${i + 1}: not valid JSON: ${(e as Error).message}`);
    }
    const parsed = ScriptLine.safeParse(json);
    if (!parsed.success) {
      const why = parsed.error.issues.map((x) => `${x.path.join('.') || '(line)'}: ${x.message}`).join('; ');
      throw new ScriptError(`${source}:${i + 1}: ${why} (expected {"name": "<tool>", "arguments": {…}})`);
    }
    calls.push({ name: parsed.data.name, arguments: parsed.data.arguments });
  });
  return calls;
}

export function readScript(file: string): ToolCall[] {
  if (!fs.existsSync(file)) throw new ScriptError(`no such script: ${file}`);
  return parseScript(fs.readFileSync(file, 'utf8'), file);
}

/** Replay calls until the script ends or `done`, then grade. `onResult` sees each result as it comes. */
export async function runScript(
  session: HarnessSession,
  calls: ToolCall[],
  onResult: (r: ToolResult) => void = () => undefined,
): Promise<{ results: ToolResult[]; grade: Grade }> {
  const results: ToolResult[] = [];
  for (const call of calls) {
    const r = await session.call(call);
    results.push(r);
    onResult(r);
    if (session.finished) break;
  }
  return { results, grade: await session.grade() };
}
