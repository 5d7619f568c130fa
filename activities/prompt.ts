/** The opening messages of an episode. They tell the model the situation and the rules of the harness, never the
 * bug: the task's title and description are for people only. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Toolset } from '../common/episode';
import type { ChatMessage } from '../common/trajectory';
import type { LoadedTask } from '../taskset/task-loader';

const SYSTEM_FULL = `You are fixing a bug in a Python project. The project is in /workspace; some of its tests fail.
You act only through tool calls, exactly one per turn. Besides bash, file and test tools you have a real pdb debugger
whose state (breakpoints, the paused frame) persists across turns.
Work like this: reproduce the failure, read the code around it, form a concrete hypothesis, and when runtime state
would settle it, start the debugger on the failing test, set a breakpoint where the hypothesis can be checked and
inspect the values. Then make a focused fix in the source (never change the tests), rerun the tests, and call done
once they pass.`;

const SYSTEM_NO_DEBUGGER = `You are fixing a bug in a Python project. The project is in /workspace; some of its tests fail.
You act only through tool calls, exactly one per turn: bash, file and test tools.
Work like this: reproduce the failure, read the code around it, form a concrete hypothesis, make a focused fix in the
source (never change the tests), rerun the tests, and call done once they pass.`;

function listFiles(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
}

export function openingMessages(task: LoadedTask, toolset: Toolset): ChatMessage[] {
  const files = listFiles(task.workspaceDir);
  const user = `The tests in /workspace fail. Find the cause and fix it.

Files:
${files.map((f) => `  ${f}`).join('\n')}

Run the tests with run_tests (or bash: python -m pytest -q). Only the project's source files are graded; edits to
tests or test configuration are ignored.`;
  return [
    { role: 'system', content: toolset === 'full' ? SYSTEM_FULL : SYSTEM_NO_DEBUGGER },
    { role: 'user', content: user },
  ];
}
