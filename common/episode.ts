/** The inputs, limits and outcomes of one episode: shared by the workflow, the activities and the CLI. Pure. */
import { z } from 'zod';
import { PolicySpecString } from './policy-spec';

export const Toolset = z.enum(['full', 'no-debugger']);
export type Toolset = z.infer<typeof Toolset>;

export const EpisodeLimits = z
  .object({
    /** The seed evaluated and trained with a 50-turn cap; nearly half of the base model's debugger episodes hit it. */
    maxTurns: z.number().int().min(1).max(500).default(50),
    /** The seed's 30k-token context: prompt plus the reply must fit, counted with the policy's own tokenizer. */
    maxContextTokens: z.number().int().min(512).max(1_000_000).default(30_000),
    /** Most tokens one model reply may generate. */
    maxNewTokens: z.number().int().min(16).max(32_768).default(1024),
    /** Guard: the same tool call (name and arguments, compared by digest) this many times in a row ends the episode;
     * the last repeat is not run. */
    maxRepeatedCalls: z.number().int().min(2).max(100).default(5),
    /** Guard: this many replies in a row without a valid tool call end the episode. A reply with no call, a call of
     * an unknown tool and a call whose arguments fail the tool's schema all count (none of them runs). */
    maxInvalidReplies: z.number().int().min(1).max(100).default(3),
  })
  .strict();
export type EpisodeLimits = z.infer<typeof EpisodeLimits>;

export const EpisodeInput = z
  .object({
    taskId: z.string().regex(/^[a-z][a-z0-9_]{2,63}$/, 'must be a task id (lower_snake_case)'),
    policy: PolicySpecString,
    limits: EpisodeLimits.default(EpisodeLimits.parse({})),
    toolset: Toolset.default('full'),
    /** Sampling seed for the policy; the evaluation gives each of a task's n episodes its own. */
    seed: z.number().int().min(0).default(0),
    /** Set when the episode is part of an evaluation or a GRPO group. */
    evaluationId: z.string().min(1).optional(),
    /** Which arm of the evaluation (a policy and tool set) the episode belongs to. */
    arm: z.string().min(1).max(100).optional(),
    /** How long a tool call may wait for the sandbox's worker before that worker counts as dead. */
    sandboxScheduleToStartSeconds: z.number().int().min(1).max(3600).default(60),
  })
  .strict();
export type EpisodeInput = z.input<typeof EpisodeInput>;
export type EpisodeConfig = z.infer<typeof EpisodeInput>;

export const ExitReason = z.enum(['done', 'turn_cap', 'context_exhausted', 'guard', 'error']);
export type ExitReason = z.infer<typeof ExitReason>;

export interface ToolCallRequest {
  name: string;
  arguments: unknown;
}

/** What the workflow learns from one policy turn: never the call itself, which lives in the event log (PostgreSQL)
 * under (episode, turn) and is read from there by the tool activity. Bounded in size whatever the model sent. */
export interface PolicyReplyClaim {
  turn: number;
  /** The tool called; null when the reply holds no valid call (no call, an unknown tool, invalid arguments). */
  tool: string | null;
  /** A digest of the call's name and arguments: the repeat guard compares these. Null with `tool`. */
  digest: string | null;
  /** A short, single-line summary of the arguments (or of why the reply is invalid), for the Temporal UI. */
  summary: string;
  invalid: boolean;
  contextExhausted: boolean;
  promptTokens: number;
  completionTokens: number;
}

/** What the workflow learns from one tool call. The observation text stays in PostgreSQL. */
export interface ToolTurnResult {
  ok: boolean;
  stateChanging: boolean;
  debugger: boolean;
  ended: boolean;
  outputChars: number;
  /** Where the debugger stands after the call ("articles.py:7 in add_tag", "ended"), when the call touched it. */
  location?: string;
}

/** Longest summary of a call's arguments shown in the Temporal UI and the `state` query. */
export const CALL_SUMMARY_CHARS = 60;

const ONE_LINE = (s: string) => Array.from(s, (c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? ' ' : c)).join('').replace(/\s+/g, ' ').trim();

/** A short, single-line summary of a call's arguments: "importers.py:16", "articles.py 1-40", "$ pytest -q". */
export function summarizeCall(name: string, args: unknown): string {
  const a = args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  const str = (k: string) => (typeof a[k] === 'string' ? (a[k] as string) : typeof a[k] === 'number' ? String(a[k]) : undefined);
  let text: string;
  if (str('file') && str('line')) text = `${str('file')}:${str('line')}`;
  else if (str('test_file')) text = str('test_name') ? `${str('test_file')}::${str('test_name')}` : str('test_file')!;
  else if (str('path')) text = str('start_line') ? `${str('path')} ${str('start_line')}-${str('end_line') ?? ''}` : str('path')!;
  else if (str('command')) text = `$ ${str('command')}`;
  else if (str('expression')) text = str('expression')!;
  else if (str('target')) text = str('target')!;
  else if (str('summary')) text = str('summary')!;
  else text = Object.keys(a).slice(0, 3).join(', ');
  const line = ONE_LINE(`${name.length > 40 ? `${name.slice(0, 40)}…` : name} ${text}`);
  return line.length > CALL_SUMMARY_CHARS ? `${line.slice(0, CALL_SUMMARY_CHARS - 1)}…` : line;
}

/** What the `state` query of a running EpisodeWorkflow answers: enough to watch an episode live. */
export interface EpisodeState {
  episodeId: string;
  taskId: string;
  phase: 'starting' | 'policy' | 'tool' | 'grading' | 'storing' | 'finished';
  turn: number;
  /** The latest call and how it went (ok, error, invalid, guard: not run). */
  lastCall: { turn: number; summary: string; result: 'ok' | 'error' | 'invalid' | 'not run' | 'pending' } | null;
  /** Where the debugger last stood, or null if it was never started. */
  debuggerLocation: string | null;
  recoveries: number;
  invalidStreak: number;
  repeatStreak: number;
  exitReason: ExitReason | null;
  passed: boolean | null;
}

/** The workflow's result: ids and a summary (the claim-check pattern); the record is in Kafka and PostgreSQL. */
export interface EpisodeResult {
  episodeId: string;
  taskId: string;
  split: string;
  passed: boolean;
  exitReason: ExitReason;
  turns: number;
  promptTokens: number;
  completionTokens: number;
  recoveries: number;
  kafka: { topic: string; partition: number; offset: string };
  error?: string;
}

/** One deterministic id per episode: the workflow id and its whole first run id. Retries of any activity reuse it, and
 * a second run under the same workflow id (a re-run evaluation names its children alike) gets an id of its own. */
export function episodeIdFor(workflowId: string, firstRunId: string): string {
  return `${workflowId}:${firstRunId}`;
}
