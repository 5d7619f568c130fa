/**
 * The tools the model can call: one small record per tool. Each record's zod schema is both the validation of the
 * model's arguments and (through `z.toJSONSchema`) the schema shown to the model, so the two cannot drift.
 *
 * The debugger is a set of structured tools, not one raw pdb command string: the model cannot type a malformed
 * pdb command, and every argument is checked before it reaches the bridge (debug-gym's weak spot).
 */
import { z } from 'zod';

const relPath = z.string().min(1).max(500).describe('path relative to the workspace root');
const lineNo = z.number().int().min(1).max(1_000_000);
const noArgs = z.object({}).strict();

export const ToolArgs = {
  bash: z
    .object({ command: z.string().min(1).max(10_000).describe('a bash command, run in the workspace with no network') })
    .strict(),
  read_file: z
    .object({
      path: relPath,
      start_line: lineNo.optional().describe('first line to show (default 1)'),
      end_line: lineNo.optional().describe('last line to show (default start_line + 199)'),
    })
    .strict(),
  edit_file: z
    .object({
      path: relPath,
      old_text: z.string().max(100_000).describe('exact text to replace; must occur exactly once. Empty creates a new file'),
      new_text: z.string().max(200_000),
    })
    .strict(),
  run_tests: z
    .object({
      target: z
        .string()
        .min(1)
        .max(500)
        .regex(/^[^\s-][^\s]*$/, 'a test file or pytest node id like test_x.py::test_y (no spaces, no options)')
        .optional()
        .describe('a test file or node id; default all visible tests'),
    })
    .strict(),
  start_debugger: z
    .object({
      test_file: relPath.describe('test file relative to the workspace, e.g. test_cache.py'),
      test_name: z
        .string()
        .min(1)
        .max(300)
        .regex(/^[^\s-][^\s]*$/, 'a test name like test_eviction or TestCache::test_eviction')
        .optional()
        .describe('test function (or Class::method); without it the whole file runs and the debugger stops before the first test body'),
    })
    .strict(),
  add_breakpoint: z
    .object({
      file: relPath,
      line: lineNo,
      condition: z.string().min(1).max(500).optional().describe('stop only when this Python expression is true'),
    })
    .strict(),
  remove_breakpoint: z.object({ file: relPath, line: lineNo }).strict(),
  list_breakpoints: noArgs,
  continue_execution: noArgs,
  step_over: noArgs,
  step_into: noArgs,
  step_out: noArgs,
  where_am_i: noArgs,
  examine_locals: noArgs,
  print_variable: z.object({ expression: z.string().min(1).max(2000).describe('a name or expression, e.g. entry.calibration') }).strict(),
  run_expression: z.object({ expression: z.string().min(1).max(2000).describe('a Python expression or statement run in the current frame') }).strict(),
  stop_debugger: noArgs,
  done: z.object({ summary: z.string().max(4000).optional() }).strict(),
} as const;

export type ToolName = keyof typeof ToolArgs;
export type ArgsOf<N extends ToolName> = z.infer<(typeof ToolArgs)[N]>;

export interface ToolInfo {
  name: ToolName;
  description: string;
  /** Part of the debugger (left out of the no-debugger toolset, counted for the seed's debugger-share filters). */
  debugger: boolean;
  /** May change the workspace or the program's execution state (not a pure read). */
  stateChanging: boolean;
}

const info = (name: ToolName, debuggerTool: boolean, stateChanging: boolean, description: string): ToolInfo => ({
  name,
  description,
  debugger: debuggerTool,
  stateChanging,
});

export const TOOLS: readonly ToolInfo[] = [
  info('bash', false, true, 'Run a shell command in the workspace (no network; output and time are bounded).'),
  info('read_file', false, false, 'Show a file with line numbers (at most 200 lines per call).'),
  info('edit_file', false, true, 'Replace old_text (which must occur exactly once) with new_text. An empty old_text on a new path creates the file.'),
  info('run_tests', false, false, 'Run pytest on the visible tests, or on one file or node id; returns failing tests with short tracebacks.'),
  info('start_debugger', true, true, 'Run a test (test_name), or a whole test file, under the debugger and stop before the (first) test body; unittest.TestCase methods too. Restarts a running session; breakpoints are kept.'),
  info('add_breakpoint', true, true, 'Set a breakpoint at file:line (checked against the executable lines), optionally with a condition.'),
  info('remove_breakpoint', true, true, 'Remove the breakpoint at file:line.'),
  info('list_breakpoints', true, false, 'List breakpoints and whether each has been hit.'),
  info('continue_execution', true, true, 'Run until a breakpoint, the end of the test, or a bounded wait (then shows every thread).'),
  info('step_over', true, true, 'Run the current line, stopping at the next line in this function.'),
  info('step_into', true, true, 'Step into the call on the current line (project code only).'),
  info('step_out', true, true, 'Run until the current function returns.'),
  info('where_am_i', true, false, 'Current file:line, function, nearby source and the stack of project frames (all threads while running).'),
  info('examine_locals', true, false, 'Local variables of the current frame (bounded; modules, functions and dunders hidden).'),
  info('print_variable', true, false, 'Evaluate an expression in the current frame and show its value (bounded).'),
  info('run_expression', true, true, 'Evaluate an expression or run a statement in the current frame.'),
  info('stop_debugger', true, true, 'Stop the debugger and the program; clears breakpoints.'),
  info('done', false, true, 'End the episode. Call only after the tests pass.'),
];

export const TOOL_INFO: Readonly<Record<ToolName, ToolInfo>> = Object.fromEntries(TOOLS.map((t) => [t.name, t])) as Record<ToolName, ToolInfo>;

export type Toolset = 'full' | 'no-debugger';

export function toolNames(toolset: Toolset): ToolName[] {
  return TOOLS.filter((t) => toolset === 'full' || !t.debugger).map((t) => t.name);
}

export function isToolName(name: string): name is ToolName {
  return Object.prototype.hasOwnProperty.call(ToolArgs, name);
}

/** The OpenAI-style `tools` list for a chat completion request. */
export function toolSpecs(toolset: Toolset): { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } }[] {
  return toolNames(toolset).map((name) => {
    const parameters = { ...(z.toJSONSchema(ToolArgs[name]) as Record<string, unknown>) };
    delete parameters.$schema; // the model needs the shape, not the draft URL
    return { type: 'function' as const, function: { name, description: TOOL_INFO[name].description, parameters } };
  });
}

/** Validate a call's arguments; a readable message on failure (it becomes the model's observation). */
export function parseArgs<N extends ToolName>(name: N, raw: unknown): { ok: true; args: ArgsOf<N> } | { ok: false; error: string } {
  const parsed = ToolArgs[name].safeParse(raw ?? {});
  if (parsed.success) return { ok: true, args: parsed.data as ArgsOf<N> };
  // Every piece is bounded: the keys and paths come from the model (a 1 MB key once came back whole).
  const clip = (t: string) => (t.length > 60 ? `${t.slice(0, 60)}…` : t);
  const why = parsed.error.issues
    .slice(0, 5)
    .map((i) => {
      const where = i.path.length ? i.path.map((p) => clip(String(p))).join('.') : 'arguments';
      if (i.code !== 'unrecognized_keys') return `${where}: ${clip(i.message)}`;
      const keys = i.keys.slice(0, 5).map(clip).join(', ');
      return `unknown argument(s) ${keys}${i.keys.length > 5 ? ` … ${i.keys.length - 5} more` : ''}`;
    })
    .join('; ');
  const expected = Object.keys((ToolArgs[name] as z.ZodObject).shape).join(', ') || '(none)';
  return { ok: false, error: `invalid arguments for ${name}: ${why}. Arguments: ${expected}` };
}
