/**
 * The tools the model can call: the registry. Each tool is one record in its own file in this folder (define.ts says
 * what a record holds: name, description, zod argument schema, handler); this file lists them in the order the model
 * sees them and derives everything else from that one list.
 *
 * The debugger is a set of structured tools, not one raw pdb command string: the model cannot type a malformed
 * pdb command, and every argument is checked before it reaches the bridge (debug-gym's weak spot).
 */
import { z } from 'zod';
import type { ToolDef } from './define';
import { bash } from './bash';
import { readFile } from './read-file';
import { editFile } from './edit-file';
import { runTests } from './run-tests';
import { startDebugger } from './start-debugger';
import { addBreakpoint } from './add-breakpoint';
import { removeBreakpoint } from './remove-breakpoint';
import { listBreakpoints } from './list-breakpoints';
import { continueExecution } from './continue-execution';
import { stepOver } from './step-over';
import { stepInto } from './step-into';
import { stepOut } from './step-out';
import { whereAmI } from './where-am-i';
import { examineLocals } from './examine-locals';
import { printVariable } from './print-variable';
import { runExpression } from './run-expression';
import { stopDebugger } from './stop-debugger';
import { done } from './done';

export type { Outcome, ToolContext, ToolDef } from './define';

/** Every tool, in the order the model sees them. */
export const TOOLS = [bash, readFile, editFile, runTests, startDebugger, addBreakpoint, removeBreakpoint, listBreakpoints, continueExecution, stepOver, stepInto, stepOut, whereAmI, examineLocals, printVariable, runExpression, stopDebugger, done] as const;

type Tool = (typeof TOOLS)[number];
type ToolByName = { [T in Tool as T['name']]: T };
export type ToolName = keyof ToolByName;
export type ArgsOf<N extends ToolName> = z.infer<ToolByName[N]['args']>;

const BY_NAME: Readonly<Record<string, ToolDef>> = Object.fromEntries(TOOLS.map((t) => [t.name, t as unknown as ToolDef]));

/** The record of a tool by name. */
export function toolDef(name: ToolName): ToolDef {
  return BY_NAME[name]!;
}

/** Each tool's record by name (its handler included). */
export const TOOL_INFO: Readonly<{ [N in ToolName]: ToolByName[N] }> = BY_NAME as unknown as { [N in ToolName]: ToolByName[N] };

export type Toolset = 'full' | 'no-debugger';

export function toolNames(toolset: Toolset): ToolName[] {
  return TOOLS.filter((t) => toolset === 'full' || !t.debugger).map((t) => t.name);
}

export function isToolName(name: string): name is ToolName {
  return Object.prototype.hasOwnProperty.call(BY_NAME, name);
}

/** The OpenAI-style `tools` list for a chat completion request. */
export function toolSpecs(toolset: Toolset): { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } }[] {
  return toolNames(toolset).map((name) => {
    const parameters = { ...(z.toJSONSchema(toolDef(name).args) as Record<string, unknown>) };
    delete parameters.$schema; // the model needs the shape, not the draft URL
    return { type: 'function' as const, function: { name, description: toolDef(name).description, parameters } };
  });
}

/** Validate a call's arguments; a readable message on failure (it becomes the model's observation). */
export function parseArgs<N extends ToolName>(name: N, raw: unknown): { ok: true; args: ArgsOf<N> } | { ok: false; error: string } {
  const parsed = toolDef(name).args.safeParse(raw ?? {});
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
  const expected = Object.keys(toolDef(name).args.shape).join(', ') || '(none)';
  return { ok: false, error: `invalid arguments for ${name}: ${why}. Arguments: ${expected}` };
}
