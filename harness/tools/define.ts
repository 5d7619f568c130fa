/**
 * What a tool is: one record holding its name, the description the model reads, its argument schema (zod: both the
 * validation of the model's arguments and, through `z.toJSONSchema`, the schema shown to the model, so the two cannot
 * drift) and its handler. Each tool is one file in this folder (debug-gym's tool registry, typed); index.ts lists them.
 *
 * A handler holds its tool's logic and acts on the episode through a ToolContext: the workspace (files, edits,
 * commands, pytest) and the debugger session. The episode (session.ts) builds the context and calls the handler
 * with arguments already validated; it is not imported here, so the registry and the session form no cycle.
 */
import { z } from 'zod';
import type { DebuggerSession } from '../debugger-session';
import type { HarnessLimits } from '../limits';
import type { Outcome } from '../outcome';
import type { Workspace } from '../workspace';

export type { Outcome } from '../outcome';

/** What a handler acts on: one episode's workspace and debugger, its limits, and the end of the episode. */
export interface ToolContext {
  readonly workspace: Workspace;
  readonly debugger: DebuggerSession;
  readonly limits: HarnessLimits;
  /** The task's own time limit for a pytest run of its tests (its spec's time_limits.test_seconds). */
  readonly testSeconds: number;
  /** Mark the episode finished: no tool runs after this, and the debugger stops. */
  end(): Promise<void>;
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
