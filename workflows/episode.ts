/**
 * EpisodeWorkflow: one debugging episode, the unit that evaluation, SFT harvesting and GRPO groups are built from.
 *
 *   begin ─► open sandbox (any worker) ─► loop { policy turn ─► tool call on the sandbox's worker } ─► grade ─► store
 *
 * The conversation, observations, token ids and logprobs live in PostgreSQL (the event log); this workflow keeps only
 * counters and the state-changing tool calls it needs to rebuild a sandbox if the worker holding it dies.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  proxyActivities,
  TimeoutFailure,
  upsertSearchAttributes,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import { parseInput } from '../common/boundary';
import { EvaluationId, ExitReasonKey, Outcome, PolicySpecKey, PolicyVersion, Split, TaskId } from '../common/search-attributes';
import { EpisodeInput, episodeIdFor, type EpisodeResult, type ExitReason, type ToolCallRequest } from '../common/episode';
import type { Activities } from '../activities';

/** Short bookkeeping calls against PostgreSQL and Kafka. */
const store = proxyActivities<Activities>({
  startToCloseTimeout: '2m',
  retry: { initialInterval: '1s', maximumInterval: '30s', maximumAttempts: 20, nonRetryableErrorTypes: ['InvalidInput'] },
});

/** One model call. Long: a CPU model or a busy server can take minutes; it heartbeats while waiting. */
const model = proxyActivities<Activities>({
  startToCloseTimeout: '15m',
  heartbeatTimeout: '60s',
  retry: { initialInterval: '2s', maximumInterval: '1m', maximumAttempts: 6, nonRetryableErrorTypes: ['InvalidPolicy', 'PolicyRequestError'] },
});

/** Creating a sandbox runs on whichever worker picks it up. */
const opener = proxyActivities<Activities>({
  startToCloseTimeout: '2m',
  retry: { initialInterval: '1s', maximumAttempts: 5, nonRetryableErrorTypes: ['InvalidInput'] },
});

/** Tool, grade and close calls run on the worker that holds the sandbox (its own task queue). */
function onSandbox(queue: string, scheduleToStartSeconds: number) {
  const options: ActivityOptions = {
    taskQueue: queue,
    // Nobody polls a dead worker's queue: the call then times out waiting to start, and we recover elsewhere.
    scheduleToStartTimeout: `${scheduleToStartSeconds}s`,
    startToCloseTimeout: '10m',
    // Tool calls heartbeat every 2 s; missing several means the process holding the sandbox is gone.
    heartbeatTimeout: '20s',
    retry: { initialInterval: '1s', maximumAttempts: 3, nonRetryableErrorTypes: ['SandboxLost', 'InvalidInput'] },
  };
  return proxyActivities<Activities>(options);
}

/** Debugger calls that set up state a rebuilt sandbox must have again: the session and its breakpoints. */
const DEBUGGER_SETUP = new Set(['start_debugger', 'add_breakpoint', 'remove_breakpoint', 'stop_debugger']);
/** Give up on an episode whose sandbox had to be rebuilt this many times. */
const MAX_RECOVERIES = 3;

function isSandboxLoss(err: unknown): boolean {
  if (!(err instanceof ActivityFailure)) return false;
  const cause = err.cause;
  if (cause instanceof TimeoutFailure) return true; // schedule-to-start (dead queue) or heartbeat (dead mid-call)
  return cause instanceof ApplicationFailure && cause.type === 'SandboxLost';
}

function errorText(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause) return `${err.activityType}: ${err.cause.message}`;
  return err instanceof Error ? err.message : String(err);
}

export async function EpisodeWorkflow(rawInput: unknown): Promise<EpisodeResult> {
  const input = parseInput(EpisodeInput, rawInput, 'EpisodeWorkflow');
  const info = workflowInfo();
  const episodeId = episodeIdFor(info.workflowId, info.firstExecutionRunId);
  const { limits } = input;

  const { split } = await store.beginEpisode({ episodeId, episode: input, startedAt: new Date(Date.now()).toISOString() });
  upsertSearchAttributes([
    { key: TaskId, value: input.taskId },
    { key: Split, value: split },
    { key: PolicySpecKey, value: input.policy },
    { key: PolicyVersion, value: 0 },
    ...(input.evaluationId ? [{ key: EvaluationId, value: input.evaluationId }] : []),
  ]);

  let sandbox = await opener.openSandbox({ episodeId, taskId: input.taskId, toolset: input.toolset });
  let recoveries = 0;
  /** Calls to re-apply, in order, on a rebuilt sandbox: edits, state-changing bash, debugger setup. */
  const replayLog: ToolCallRequest[] = [];
  let pendingNotice: string | undefined;

  /** Run a sandbox activity; if the sandbox's worker is gone, rebuild the sandbox on another worker and retry. */
  async function withSandbox<T>(beforeTurn: number, fn: (acts: ReturnType<typeof onSandbox>) => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await fn(onSandbox(sandbox.queue, input.sandboxScheduleToStartSeconds));
      } catch (err) {
        if (!isSandboxLoss(err) || recoveries >= MAX_RECOVERIES) throw err;
        recoveries++;
        sandbox = await opener.openSandbox({ episodeId, taskId: input.taskId, toolset: input.toolset });
        const acts = onSandbox(sandbox.queue, input.sandboxScheduleToStartSeconds);
        for (const call of replayLog) {
          await acts.runTool({ episodeId, sessionId: sandbox.sessionId, turn: beforeTurn, call, replay: true });
        }
        await store.recordRecovery({ episodeId, beforeTurn, index: recoveries, reason: errorText(err), reappliedCalls: replayLog.length, newSessionId: sandbox.sessionId });
        pendingNotice = '[harness] The sandbox was lost and rebuilt: your edits and commands were re-applied, and the debugger (if it was running) was restarted with your breakpoints.';
      }
    }
  }

  let exitReason: ExitReason = 'turn_cap';
  let error: string | null = null;
  let turn = 0;
  let invalidStreak = 0;
  let lastCallKey = '';
  let repeatStreak = 0;
  try {
    while (turn < limits.maxTurns) {
      turn++;
      const reply = await model.policyTurn({ episodeId, turn, policy: input.policy, toolset: input.toolset, limits, seed: input.seed });
      if (reply.contextExhausted) {
        turn--; // no reply was produced
        exitReason = 'context_exhausted';
        break;
      }
      if (!reply.toolCall) {
        if (++invalidStreak >= limits.maxInvalidReplies) {
          exitReason = 'guard';
          break;
        }
        continue;
      }
      invalidStreak = 0;
      const key = JSON.stringify([reply.toolCall.name, reply.toolCall.arguments]);
      repeatStreak = key === lastCallKey ? repeatStreak + 1 : 1;
      lastCallKey = key;
      if (repeatStreak >= limits.maxRepeatedCalls) {
        exitReason = 'guard';
        break;
      }
      const call = reply.toolCall;
      const notice = pendingNotice;
      pendingNotice = undefined;
      const result = await withSandbox(turn, (acts) => acts.runTool({ episodeId, sessionId: sandbox.sessionId, turn, call, notice }));
      if (result.stateChanging || DEBUGGER_SETUP.has(call.name)) replayLog.push(call);
      if (result.ended) {
        exitReason = 'done';
        break;
      }
    }
  } catch (err) {
    exitReason = 'error';
    error = errorText(err);
  }

  // The grade always comes from the grader, whatever ended the episode.
  try {
    await withSandbox(turn + 1, (acts) => acts.gradeSandbox({ episodeId, sessionId: sandbox.sessionId, turn: turn + 1 }));
  } catch (err) {
    exitReason = 'error';
    error = error ?? `grading failed: ${errorText(err)}`;
  }
  try {
    await onSandbox(sandbox.queue, input.sandboxScheduleToStartSeconds).closeSandbox({ sessionId: sandbox.sessionId });
  } catch {
    // The sandbox's worker is gone; it took the sandbox with it.
  }

  const stored = await store.finishEpisode({ episodeId, workflowId: info.workflowId, exitReason, error, finishedAt: new Date(Date.now()).toISOString() });
  upsertSearchAttributes([
    { key: Outcome, value: stored.passed ? 'pass' : 'fail' },
    { key: ExitReasonKey, value: exitReason },
    { key: PolicyVersion, value: stored.policyVersion },
  ]);
  return {
    episodeId,
    taskId: input.taskId,
    split,
    passed: stored.passed,
    exitReason,
    turns: stored.turns,
    promptTokens: stored.promptTokens,
    completionTokens: stored.completionTokens,
    recoveries: stored.recoveries,
    kafka: stored.kafka,
    ...(error ? { error } : {}),
  };
}
