/** The trajectory record: one per finished episode, published to Kafka topic `rollouts` (keyed by task id) and kept
 * in PostgreSQL. Everything the evaluation, SFT harvesting and the learner need is here; the workflow result holds
 * only ids and a summary. */
import { z } from 'zod';
import { ExitReason, Toolset } from './episode';

export const TRAJECTORY_SCHEMA = 'debugrl.trajectory/v1';

export const ChatToolCall = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

export const ChatMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string().nullable(), tool_calls: z.array(ChatToolCall).optional() }),
  z.object({ role: z.literal('tool'), tool_call_id: z.string(), content: z.string() }),
]);
export type ChatMessage = z.infer<typeof ChatMessage>;

export const AssistantEvent = z.object({
  /** The reply as the chat API returned it (text and tool calls). */
  message: ChatMessage,
  toolCall: z.object({ name: z.string(), arguments: z.unknown() }).nullable(),
  invalidReason: z.string().nullable(),
  promptTokens: z.number().int().min(0),
  completionTokens: z.number().int().min(0),
  /** Of promptTokens, those the server served from its KV cache (usage.prompt_tokens_details.cached_tokens); the rest
   * were prefilled this turn. Absent when the server does not report it (or for events written before it was kept). */
  cachedPromptTokens: z.number().int().min(0).optional(),
  /** Of promptTokens, those whose KV the server reused from another adapter version (the embedded server's
   * usage.debugrl.stale_kv_tokens, 0 by construction there); the turn "used stale KV" when above 0. Absent when the
   * server does not report it (vLLM) or for events written before it was kept. Counted in common/token-chain.ts. */
  staleKvTokens: z.number().int().min(0).optional(),
  /** How tokens were counted: the server's own tokenizer, or a named approximation. */
  tokenCounting: z.enum(['server-usage', 'approx-chars/4']),
  policyVersion: z.number().int().min(0),
  /** Present when the policy returns them (vLLM, the embedded server): what RL needs. */
  promptTokenIds: z.array(z.number().int()).optional(),
  tokenIds: z.array(z.number().int()).optional(),
  logprobs: z.array(z.number()).optional(),
  /** Per completion token, whether constrained decoding forced it (the embedded server says; vLLM does not). The
   * learner leaves forced tokens out of its loss: they were never the policy's choice. */
  forcedTokens: z.array(z.boolean()).optional(),
  latencyMs: z.number().min(0),
});
export type AssistantEvent = z.infer<typeof AssistantEvent>;

export const ToolEvent = z.object({
  tool: z.string(),
  ok: z.boolean(),
  /** Exactly the text the model saw. */
  output: z.string(),
  stateChanging: z.boolean(),
  debugger: z.boolean(),
  meta: z.record(z.string(), z.unknown()),
  latencyMs: z.number().min(0),
  /** True when this observation answered an invalid reply instead of a tool call. */
  invalidReply: z.boolean().default(false),
  /** The sandbox session that ran the call (absent on invalid replies and on events from before it was kept): a turn
   * re-executed on another sandbox runs the call there again, unlogged (activities/sandbox.ts, runTool). */
  sessionId: z.string().optional(),
});
export type ToolEvent = z.infer<typeof ToolEvent>;

export const RecoveryEvent = z.object({
  beforeTurn: z.number().int(),
  reason: z.string(),
  reappliedCalls: z.number().int().min(0),
  newSessionId: z.string(),
});

export const StartEvent = z.object({
  taskId: z.string(),
  split: z.string(),
  policy: z.string(),
  toolset: Toolset,
  limits: z.record(z.string(), z.number()),
  seed: z.number().int(),
  evaluationId: z.string().nullable(),
  arm: z.string().nullable().default(null),
  messages: z.array(ChatMessage),
  startedAt: z.string(),
});
export type StartEvent = z.infer<typeof StartEvent>;

export const GradeEvent = z.object({
  passed: z.boolean(),
  tests: z.record(z.string(), z.string()),
  notes: z.array(z.string()),
  durationMs: z.number(),
});
export type GradeEvent = z.infer<typeof GradeEvent>;

export const TrajectoryRecord = z.object({
  schema: z.literal(TRAJECTORY_SCHEMA),
  episodeId: z.string(),
  workflowId: z.string(),
  taskId: z.string(),
  split: z.string(),
  policy: z.object({ spec: z.string(), version: z.number().int() }),
  toolset: Toolset,
  evaluationId: z.string().nullable(),
  arm: z.string().nullable().default(null),
  seed: z.number().int(),
  limits: z.record(z.string(), z.number()),
  messages: z.array(ChatMessage),
  turns: z.array(z.object({ turn: z.number().int(), assistant: AssistantEvent, tool: ToolEvent.nullable() })),
  recoveries: z.array(RecoveryEvent),
  outcome: z.object({ passed: z.boolean(), tests: z.record(z.string(), z.string()), exitReason: ExitReason, error: z.string().nullable(), gradeNotes: z.array(z.string()) }),
  tokens: z.object({ prompt: z.number().int(), completion: z.number().int(), finalContext: z.number().int() }),
  timings: z.object({ startedAt: z.string(), finishedAt: z.string(), durationMs: z.number() }),
});
export type TrajectoryRecord = z.infer<typeof TrajectoryRecord>;
