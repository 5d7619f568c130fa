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
    /** Guard: the same tool call (name and arguments) this many times in a row ends the episode. */
    maxRepeatedCalls: z.number().int().min(2).max(100).default(5),
    /** Guard: this many replies in a row without a valid tool call end the episode. */
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

/** What the workflow learns from one policy turn. The full reply (text, token ids, logprobs) stays in PostgreSQL. */
export interface PolicyTurnResult {
  toolCall: ToolCallRequest | null;
  /** Why the reply held no valid tool call; shown to the model as the observation. */
  invalidReason: string | null;
  promptTokens: number;
  completionTokens: number;
  policyVersion: number;
}

/** What the workflow learns from one tool call. The observation text stays in PostgreSQL. */
export interface ToolTurnResult {
  ok: boolean;
  stateChanging: boolean;
  debugger: boolean;
  ended: boolean;
  outputChars: number;
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

/** One deterministic id per episode: the workflow id and its first run id. Retries of any activity reuse it. */
export function episodeIdFor(workflowId: string, firstRunId: string): string {
  return `${workflowId}:${firstRunId.slice(0, 8)}`;
}
