/**
 * EpisodeWorkflow: one debugging episode, the unit that evaluation, SFT harvesting and GRPO groups are built from.
 *
 *   begin ─► open sandbox (here) ─► loop { policy turn ─► tool call on the sandbox's worker } ─► grade ─► store
 *
 * The conversation, observations, token ids and logprobs live in PostgreSQL (the event log), and so do the tool calls
 * (the claim-check pattern): a policy turn hands back the tool's name, a digest of the call and a short summary, and
 * the tool activity reads the call itself from the event log by (episode, turn). This workflow keeps counters and the
 * turn numbers of the state-changing calls it must re-apply if the worker holding the sandbox dies.
 *
 * For people watching: every activity carries a one-line summary ("turn 3 · add_breakpoint importers.py:16"), the
 * workflow's current details hold the last turns with their results and, at the end, the outcome, and the `state`
 * query answers the turn, the last call and where the debugger stands.
 */
import {
  ActivityFailure,
  defineQuery,
  deprecatePatch,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  TimeoutFailure,
  upsertSearchAttributes,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import { parseInput } from '../common/boundary';
import { parsePolicySpec } from '../common/policy-spec';
import { EvaluationId, ExitReasonKey, Outcome, PolicySpecKey, PolicyVersion, Split, TaskId } from '../common/search-attributes';
import {
  EpisodeInput,
  episodeIdFor,
  type EpisodeConfig,
  type EpisodeResult,
  type EpisodeState,
  type ExitReason,
} from '../common/episode';
import { Failure, failureTypeOf, NON_RETRYABLE } from '../common/failures';
import type { Activities } from '../activities';

/** `state`: what a running episode is doing (turn, last call, debugger location). */
export const stateQuery = defineQuery<EpisodeState>('state');

/** Retired patches (docs/durability.md, "Changing a workflow's shape"): their old branches are gone, and each call
 * stays as `deprecatePatch` until no open execution and no saved history carries its `patched` marker.
 * - `episode-id-full-run-id`: the episode id is the workflow id and the whole first run id (was its first 8 digits).
 * - `claim-check-calls`: tool calls live in the event log, never in the workflow; bookkeeping is local activities. */
export const RETIRED_PATCHES = ['episode-id-full-run-id', 'claim-check-calls'] as const;

/** The patch of the current shape: the sandbox opens as a local activity of the worker that runs the workflow, and each
 * tool call is first tried there as a local activity (`runToolIfHere`), which saves two task-queue hand-offs per turn
 * (issue 19). Histories from before it open the sandbox on the shared queue and send every call to the sandbox's. */
export const LOCAL_TOOL_CALLS = 'local-tool-calls';

/** Short bookkeeping calls against PostgreSQL and Kafka, as local activities: run by the worker that runs the
 * workflow, within its workflow task, so they cost no task-queue round trip. Each is idempotent (keyed writes), so a
 * re-run after a crash is harmless. */
const bookkeeping = proxyLocalActivities<Activities>({
  startToCloseTimeout: '2m',
  localRetryThreshold: '10s',
  retry: { initialInterval: '1s', maximumInterval: '30s', maximumAttempts: 20, nonRetryableErrorTypes: NON_RETRYABLE.store },
});

/** One model call. Long: a CPU model or a busy server can take minutes; it heartbeats while waiting. */
const model = proxyActivities<Activities>({
  startToCloseTimeout: '15m',
  heartbeatTimeout: '60s',
  retry: { initialInterval: '2s', maximumInterval: '1m', maximumAttempts: 6, nonRetryableErrorTypes: NON_RETRYABLE.policy },
});

/** The policies that wait on no model server (a script, the oracle) take their turn as a local activity: in the worker
 * that runs the workflow, within its workflow task, which saves a task-queue round trip and a workflow task per turn.
 * Model calls stay regular activities: they can take minutes and heartbeat while they wait. */
const OFFLINE_POLICIES = new Set(['scripted', 'oracle']);
const offlinePolicy = proxyLocalActivities<Activities>({
  startToCloseTimeout: '1m',
  localRetryThreshold: '10s',
  retry: { initialInterval: '1s', maximumInterval: '30s', maximumAttempts: 6, nonRetryableErrorTypes: NON_RETRYABLE.policy },
});

/** Creating a sandbox runs on whichever worker picks it up. */
const opener = proxyActivities<Activities>({
  startToCloseTimeout: '2m',
  retry: { initialInterval: '1s', maximumAttempts: 5, nonRetryableErrorTypes: NON_RETRYABLE.opener },
});

/** Since `local-tool-calls`: the sandbox opens on the worker that runs the workflow, within its workflow task. */
const localOpener = proxyLocalActivities<Activities>({
  startToCloseTimeout: '2m',
  localRetryThreshold: '10s',
  retry: { initialInterval: '1s', maximumAttempts: 5, nonRetryableErrorTypes: NON_RETRYABLE.opener },
});

/** Since `local-tool-calls`: a tool call on the worker that runs the workflow, if that worker holds the sandbox. It
 * cannot heartbeat; if its worker dies, the workflow task times out and the workflow goes on elsewhere, where the
 * call finds no sandbox and takes the sandbox's queue, whose schedule-to-start timeout then starts the recovery. */
const localHost = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10m',
  localRetryThreshold: '10s',
  retry: { initialInterval: '1s', maximumAttempts: 3, nonRetryableErrorTypes: NON_RETRYABLE.sandbox },
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
    retry: { initialInterval: '1s', maximumAttempts: 3, nonRetryableErrorTypes: NON_RETRYABLE.sandbox },
  };
  return proxyActivities<Activities>(options);
}

/** Debugger calls that set up state a rebuilt sandbox must have again: the session and its breakpoints. */
const DEBUGGER_SETUP = new Set(['start_debugger', 'add_breakpoint', 'remove_breakpoint', 'stop_debugger']);
/** Give up on an episode whose sandbox had to be rebuilt this many times. */
export const MAX_RECOVERIES = 3;
/** Turns kept in the workflow's current details. */
const STORY_LINES = 8;
const RECOVERY_NOTICE =
  '[harness] The sandbox was lost and rebuilt: your edits and commands were re-applied, and the debugger (if it was running) was restarted with your breakpoints.';

/** A regular activity's failure arrives as an ActivityFailure around its cause; a local activity's, as the cause. */
function isSandboxLoss(err: unknown): boolean {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof TimeoutFailure) return true; // schedule-to-start (dead queue), heartbeat (dead mid-call), or a local call's start-to-close
  return failureTypeOf(err) === Failure.SandboxLost;
}

function errorText(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause) return `${err.activityType}: ${err.cause.message}`;
  return err instanceof Error ? err.message : String(err);
}

type Stored = Awaited<ReturnType<Activities['finishEpisode']>>;

/** Search attributes known at the start: what the episode is (Temporal UI filters and `workflow list --query`). */
function tagStart(input: EpisodeConfig, split: string): void {
  upsertSearchAttributes([
    { key: TaskId, value: input.taskId },
    { key: Split, value: split },
    { key: PolicySpecKey, value: input.policy },
    { key: PolicyVersion, value: 0 },
    ...(input.evaluationId ? [{ key: EvaluationId, value: input.evaluationId }] : []),
  ]);
}

/** Search attributes of the outcome: `Outcome="fail" AND TaskId="…"` finds the failures. */
function tagOutcome(stored: Stored, exitReason: ExitReason): void {
  upsertSearchAttributes([
    { key: Outcome, value: stored.passed ? 'pass' : 'fail' },
    { key: ExitReasonKey, value: exitReason },
    { key: PolicyVersion, value: stored.policyVersion },
  ]);
}

function resultOf(input: EpisodeConfig, episodeId: string, split: string, exitReason: ExitReason, stored: Stored, error: string | null): EpisodeResult {
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

export async function EpisodeWorkflow(rawInput: unknown): Promise<EpisodeResult> {
  const input = parseInput(EpisodeInput, rawInput, 'EpisodeWorkflow');
  const info = workflowInfo();
  for (const patch of RETIRED_PATCHES) deprecatePatch(patch);
  // Asked first, before any command, as the markers above are.
  const localTools = patched(LOCAL_TOOL_CALLS);
  const episodeId = episodeIdFor(info.workflowId, info.firstExecutionRunId);
  const state: EpisodeState = {
    episodeId,
    taskId: input.taskId,
    phase: 'starting',
    turn: 0,
    lastCall: null,
    debuggerLocation: null,
    recoveries: 0,
    invalidStreak: 0,
    repeatStreak: 0,
    exitReason: null,
    passed: null,
  };
  setHandler(stateQuery, () => state);
  const { limits } = input;
  const story: string[] = [];
  const head = () => `**${input.taskId}** · ${input.policy} · turn ${state.turn}/${limits.maxTurns}${state.debuggerLocation ? ` · debugger at ${state.debuggerLocation}` : ''}`;
  const tell = (line: string) => {
    story.push(line);
    if (story.length > STORY_LINES) story.shift();
    setCurrentDetails([head(), ...story.map((l) => `- ${l}`)].join('\n'));
  };

  const { split } = await bookkeeping.beginEpisode.executeWithOptions({ summary: `begin · ${input.taskId} · ${input.policy}`.slice(0, 120) }, [
    { episodeId, episode: input, startedAt: new Date(Date.now()).toISOString() },
  ]);
  tagStart(input, split);

  const open = (summary: string) =>
    (localTools ? localOpener : opener).openSandbox.executeWithOptions({ summary }, [{ episodeId, taskId: input.taskId, toolset: input.toolset }]);
  let sandbox = await open(`open sandbox · ${input.taskId}`);
  const host = () => onSandbox(sandbox.queue, input.sandboxScheduleToStartSeconds);
  /** Turns whose calls a rebuilt sandbox must re-apply, in order: edits, state-changing bash, debugger setup. */
  const replayTurns: number[] = [];
  let pendingNotice: string | undefined;
  /** The session whose worker said it does not hold it: its calls go to its queue from then on. */
  let elsewhere: string | null = null;

  /** Run a sandbox activity; if the sandbox's worker is gone, rebuild the sandbox on another worker and retry. */
  async function withSandbox<T>(beforeTurn: number, fn: (acts: ReturnType<typeof onSandbox>) => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await fn(host());
      } catch (err) {
        if (!isSandboxLoss(err) || state.recoveries >= MAX_RECOVERIES) throw err;
        state.recoveries++;
        tell(`sandbox lost (${errorText(err).slice(0, 80)}): rebuilding, recovery ${state.recoveries} of at most ${MAX_RECOVERIES}`);
        sandbox = await open(`rebuild sandbox · recovery ${state.recoveries}`);
        await host().reapplyTurns.executeWithOptions({ summary: `re-apply ${replayTurns.length} call(s) · recovery ${state.recoveries}` }, [
          { episodeId, sessionId: sandbox.sessionId, turns: [...replayTurns] },
        ]);
        await bookkeeping.recordRecovery({ episodeId, beforeTurn, index: state.recoveries, reason: errorText(err), reappliedCalls: replayTurns.length, newSessionId: sandbox.sessionId });
        pendingNotice = RECOVERY_NOTICE;
      }
    }
  }

  type PolicyInput = Parameters<Activities['policyReply']>[0];
  const policyReply = OFFLINE_POLICIES.has(parsePolicySpec(input.policy).kind)
    ? (summary: string, args: PolicyInput) => offlinePolicy.policyReply.executeWithOptions({ summary }, [args])
    : (summary: string, args: PolicyInput) => model.policyReply.executeWithOptions({ summary }, [args]);

  let exitReason: ExitReason = 'turn_cap';
  let error: string | null = null;
  let lastKey = '';
  let previous = '';
  try {
    while (state.turn < limits.maxTurns) {
      const turn = ++state.turn;
      state.phase = 'policy';
      const reply = await policyReply(`turn ${turn} · policy${previous ? ` (after ${previous})` : ''}`, {
        episodeId,
        turn,
        policy: input.policy,
        toolset: input.toolset,
        limits,
        seed: input.seed,
      });
      if (reply.contextExhausted) {
        state.turn--; // no reply was produced
        exitReason = 'context_exhausted';
        tell(`turn ${turn} · the context is full`);
        break;
      }
      if (reply.invalid || !reply.tool) {
        state.lastCall = { turn, summary: reply.summary, result: 'invalid' };
        tell((previous = `turn ${turn} · ${reply.summary}`));
        if (++state.invalidStreak >= limits.maxInvalidReplies) {
          exitReason = 'guard';
          tell(`guard: ${state.invalidStreak} replies in a row without a valid call`);
          break;
        }
        continue;
      }
      state.invalidStreak = 0;
      const key = `${reply.tool}:${reply.digest}`;
      state.repeatStreak = key === lastKey ? state.repeatStreak + 1 : 1;
      lastKey = key;
      if (state.repeatStreak >= limits.maxRepeatedCalls) {
        exitReason = 'guard';
        state.lastCall = { turn, summary: reply.summary, result: 'not run' };
        tell(`turn ${turn} · ${reply.summary} → not run (guard: the same call ${state.repeatStreak} times in a row)`);
        break;
      }
      state.phase = 'tool';
      state.lastCall = { turn, summary: reply.summary, result: 'pending' };
      const result = await withSandbox(turn, (acts) => {
        // Taken at each attempt, so the call retried on a rebuilt sandbox tells the model about the rebuild.
        const notice = pendingNotice;
        pendingNotice = undefined;
        const call = { episodeId, sessionId: sandbox.sessionId, turn, ...(notice ? { notice, rebuilt: true } : {}) };
        const summary = `turn ${turn} · ${reply.summary}`;
        if (!localTools || elsewhere === sandbox.sessionId) return acts.runTool.executeWithOptions({ summary }, [call]);
        return localHost.runToolIfHere.executeWithOptions({ summary }, [{ ...call, queue: sandbox.queue }]).then((here) => {
          if (here) return here;
          elsewhere = call.sessionId;
          return acts.runTool.executeWithOptions({ summary }, [call]);
        });
      });
      if (result.location) state.debuggerLocation = result.location;
      if (result.stateChanging || DEBUGGER_SETUP.has(reply.tool)) replayTurns.push(turn);
      state.lastCall = { turn, summary: reply.summary, result: result.ok ? 'ok' : 'error' };
      previous = `turn ${turn} · ${reply.summary} → ${result.ok ? 'ok' : 'error'}${result.location ? ` · ${result.location}` : ''}`;
      tell(previous);
      if (result.ended) {
        exitReason = 'done';
        break;
      }
    }
  } catch (err) {
    exitReason = 'error';
    error = errorText(err);
    tell(`error: ${error.slice(0, 200)}`);
  }
  state.exitReason = exitReason;

  // The grade always comes from the grader, whatever ended the episode.
  state.phase = 'grading';
  const turns = state.turn;
  try {
    await withSandbox(turns + 1, (acts) => acts.gradeSandbox.executeWithOptions({ summary: `grade · after ${turns} turns (${exitReason})` }, [{ episodeId, sessionId: sandbox.sessionId, turn: turns + 1 }]));
  } catch (err) {
    exitReason = 'error';
    error = error ?? `grading failed: ${errorText(err)}`;
  }
  try {
    await host().closeSandbox.executeWithOptions({ summary: 'close sandbox' }, [{ sessionId: sandbox.sessionId }]);
  } catch {
    // The sandbox's worker is gone; it took the sandbox with it.
  }

  state.phase = 'storing';
  state.exitReason = exitReason;
  const stored = await bookkeeping.finishEpisode.executeWithOptions({ summary: `store · ${exitReason}` }, [
    { episodeId, workflowId: info.workflowId, exitReason, error, finishedAt: new Date(Date.now()).toISOString() },
  ]);
  tagOutcome(stored, exitReason);
  state.phase = 'finished';
  state.passed = stored.passed;
  tell(`**${stored.passed ? 'PASS' : 'FAIL'}** · ${exitReason} after ${stored.turns} turns${stored.recoveries ? ` · ${stored.recoveries} recoveries` : ''}${error ? ` · ${error.slice(0, 120)}` : ''}`);
  return resultOf(input, episodeId, split, exitReason, stored, error);
}
