/**
 * What a tool is: one record holding its name, the description the model reads, its argument schema (zod: both the
 * validation of the model's arguments and, through `z.toJSONSchema`, the schema shown to the model, so the two cannot
 * drift) and its handler. Each tool is one file in this folder (debug-gym's tool registry, typed); index.ts lists them.
 *
 * Handlers act through a ToolContext (the episode's HarnessSession): the workspace tools and the debugger session.
 */
import { z } from 'zod';
import type { HarnessLimits } from '../session';

/** What a handler returns: the observation text and facts for metrics (`meta`, never shown to the model). */
export interface Outcome {
  ok: boolean;
  output: string;
  meta: Record<string, unknown>;
}

/** The operations handlers use. Argument objects are the tools' own, already validated. */
export interface ToolContext {
  readonly limits: HarnessLimits;
  bash(command: string): Promise<Outcome>;
  readFile(a: { path: string; start_line?: number; end_line?: number }): Promise<Outcome>;
  editFile(a: { path: string; old_text: string; new_text: string }): Promise<Outcome>;
  runTests(target?: string): Promise<Outcome>;
  startDebugger(testFile: string, testName?: string): Promise<Outcome>;
  addBreakpoint(a: { file: string; line: number; condition?: string }): Promise<Outcome>;
  removeBreakpoint(a: { file: string; line: number }): Promise<Outcome>;
  /** One bridge command (protocol.py) on the running debugger session. */
  debuggerCommand(cmd: string, args: Record<string, unknown>): Promise<Outcome>;
  stopDebugger(): Promise<Outcome>;
  finish(): Promise<Outcome>;
}

export interface ToolDef<N extends string = string, S extends z.ZodObject = z.ZodObject> {
  name: N;
  description: string;
  /** Part of the debugger (left out of the no-debugger toolset, counted for the seed's debugger-share filters). */
  debugger: boolean;
  /** May change the workspace or the program's execution state (not a pure read). */
  stateChanging: boolean;
  args: S;
  run(ctx: ToolContext, args: z.infer<S>): Promise<Outcome>;
}

export function defineTool<const N extends string, S extends z.ZodObject>(tool: ToolDef<N, S>): ToolDef<N, S> {
  return tool;
}

// Argument pieces several tools share.
export const relPath = z.string().min(1).max(500).describe('path relative to the workspace root');
export const lineNo = z.number().int().min(1).max(1_000_000);
export const noArgs = z.object({}).strict();
