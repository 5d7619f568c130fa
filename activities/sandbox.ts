/**
 * Sandbox activities. The harness session (the bubblewrap sandbox and the pdb bridge) lives in the memory of the
 * worker process that opened it, so every later activity of the episode must run on that process: `openSandbox`
 * runs on the shared queue and returns this process's own queue, and the workflow schedules the episode's tool,
 * grade and close activities there (Temporal's worker-specific task queue pattern). If the process dies, those
 * activities time out waiting to start (or stop heartbeating) and the workflow rebuilds the sandbox elsewhere.
 */
import { heartbeat } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Pool } from 'pg';
import type { Config } from '../common/config';
import type { ToolCallRequest, ToolTurnResult, Toolset } from '../common/episode';
import type { GradeEvent, ToolEvent } from '../common/trajectory';
import { HarnessInfraError, HarnessSession } from '../harness/session';
import { loadTask, resolveTaskDir } from '../tasks/task-loader';
import { appendEvent, findEvent } from './trajectory-store';

/** The failure type the workflow treats as "this sandbox is gone: recover". */
export const SANDBOX_LOST = 'SandboxLost';

export interface SandboxHandle {
  sessionId: string;
  /** The task queue of the worker process that holds the session. */
  queue: string;
}

function summarize(ev: ToolEvent): ToolTurnResult {
  return { ok: ev.ok, stateChanging: ev.stateChanging, debugger: ev.debugger, ended: ev.meta.ended === true, outputChars: ev.output.length };
}

/** The harness sessions held by this worker process; the worker closes them all on shutdown. */
export class SessionRegistry extends Map<string, HarnessSession> {
  async closeAll(): Promise<number> {
    const all = [...this.values()];
    this.clear();
    await Promise.all(all.map((s) => s.close().catch(() => undefined)));
    return all.length;
  }
}

export function createSandboxActivities(deps: { pool: Pool; config: Config; hostQueue: string; sessions: SessionRegistry }) {
  const { sessions } = deps;

  function sessionOf(sessionId: string): HarnessSession {
    const s = sessions.get(sessionId);
    if (!s) throw ApplicationFailure.create({ type: SANDBOX_LOST, message: `sandbox session ${sessionId} is not on this worker (was it restarted?)`, nonRetryable: true });
    return s;
  }

  /** Run fn while heartbeating, so a dead worker is noticed within the heartbeat timeout. */
  async function beating<T>(fn: () => Promise<T>): Promise<T> {
    const timer = setInterval(() => heartbeat(), 2000);
    try {
      return await fn();
    } finally {
      clearInterval(timer);
    }
  }

  return {
    /** Shared queue: create the episode's sandbox on this worker and hand back this worker's own queue. */
    async openSandbox(input: { episodeId: string; taskId: string; toolset: Toolset }): Promise<SandboxHandle> {
      let taskDir: string;
      try {
        taskDir = resolveTaskDir(input.taskId, deps.config.DEBUGRL_TASKS_DIR);
        loadTask(taskDir);
      } catch (e) {
        throw ApplicationFailure.nonRetryable((e as Error).message, 'InvalidInput');
      }
      const session = await HarnessSession.create({ taskDir, toolset: input.toolset });
      sessions.set(session.id, session);
      return { sessionId: session.id, queue: deps.hostQueue };
    },

    /** Host queue: one tool call. The observation goes to the event log; a retry after it was written returns it
     * without running the call again (an edit must not apply twice). `replay` re-applies a call after a recovery,
     * without logging it: the model already saw its observation. */
    async runTool(input: { episodeId: string; sessionId: string; turn: number; call: ToolCallRequest; replay?: boolean; notice?: string }): Promise<ToolTurnResult> {
      if (!input.replay) {
        const stored = (await findEvent(deps.pool, input.episodeId, input.turn, 'tool')) as ToolEvent | null;
        if (stored) return summarize(stored);
      }
      const session = sessionOf(input.sessionId);
      const started = Date.now();
      let result;
      try {
        result = await beating(() => session.call({ name: input.call.name, arguments: input.call.arguments }));
      } catch (e) {
        if (e instanceof HarnessInfraError) {
          sessions.delete(input.sessionId);
          await session.close().catch(() => undefined);
          throw ApplicationFailure.create({ type: SANDBOX_LOST, message: `sandbox failed: ${e.message}`, nonRetryable: true });
        }
        throw e;
      }
      const event: ToolEvent = {
        tool: result.tool,
        ok: result.ok,
        output: input.notice ? `${input.notice}\n${result.output}` : result.output,
        stateChanging: result.stateChanging,
        debugger: result.debugger,
        meta: result.meta,
        latencyMs: Date.now() - started,
        invalidReply: false,
      };
      if (input.replay) return summarize(event);
      const { payload } = await appendEvent(deps.pool, input.episodeId, input.turn, 'tool', event);
      return summarize(payload as ToolEvent);
    },

    /** Host queue: grade the episode's source files in a fresh sandbox (the harness's grader). */
    async gradeSandbox(input: { episodeId: string; sessionId: string; turn: number }): Promise<{ passed: boolean; failing: number }> {
      const stored = (await findEvent(deps.pool, input.episodeId, input.turn, 'grade')) as GradeEvent | null;
      const grade = stored ?? (await beating(() => sessionOf(input.sessionId).grade()));
      if (!stored) await appendEvent(deps.pool, input.episodeId, input.turn, 'grade', { passed: grade.passed, tests: grade.tests, notes: grade.notes, durationMs: grade.durationMs });
      return { passed: grade.passed, failing: Object.values(grade.tests).filter((t) => t !== 'passed' && t !== 'skipped').length };
    },

    /** Host queue: destroy the sandbox and stop the debugger. Idempotent. */
    async closeSandbox(input: { sessionId: string }): Promise<void> {
      const s = sessions.get(input.sessionId);
      sessions.delete(input.sessionId);
      if (s) await s.close();
    },
  };
}
