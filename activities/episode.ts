/** Activities that open and close an episode's record: the start event, and the finished trajectory stored in
 * PostgreSQL and published to Kafka exactly once. */
import type { Config } from '../common/config';
import type { EpisodeConfig, ExitReason } from '../common/episode';
import { Failure, failure } from '../common/failures';
import type { StartEvent } from '../common/trajectory';
import { loadTask, resolveTaskDir } from '../taskset/task-loader';
import { openingMessages } from './prompt';
import { appendEvent, buildRecord, loadEvents, storeAndPublish, type StoreDeps } from './trajectory-store';

export function createEpisodeActivities(deps: StoreDeps & { config: Config }) {
  return {
    async beginEpisode(input: { episodeId: string; episode: EpisodeConfig; startedAt: string }): Promise<{ split: string }> {
      let task;
      try {
        task = loadTask(resolveTaskDir(input.episode.taskId, deps.config.DEBUGRL_TASKS_DIR));
      } catch (e) {
        throw failure(Failure.InvalidInput, (e as Error).message);
      }
      const start: StartEvent = {
        taskId: task.spec.id,
        split: task.spec.split,
        policy: input.episode.policy,
        toolset: input.episode.toolset,
        limits: input.episode.limits,
        seed: input.episode.seed,
        evaluationId: input.episode.evaluationId ?? null,
        arm: input.episode.arm ?? null,
        messages: openingMessages(task, input.episode.toolset),
        startedAt: input.startedAt,
      };
      const { payload } = await appendEvent(deps.pool, input.episodeId, 0, 'start', start);
      return { split: (payload as StartEvent).split };
    },

    async recordRecovery(input: { episodeId: string; beforeTurn: number; index: number; reason: string; reappliedCalls: number; newSessionId: string }): Promise<void> {
      const { episodeId, index, ...event } = input;
      await appendEvent(deps.pool, episodeId, input.beforeTurn, `recovery-${index}`, event);
    },

    async finishEpisode(input: { episodeId: string; workflowId: string; exitReason: ExitReason; error: string | null; finishedAt: string }) {
      const events = await loadEvents(deps.pool, input.episodeId);
      const record = buildRecord(events, input);
      const kafka = await storeAndPublish(deps, record);
      return { kafka, passed: record.outcome.passed, turns: record.turns.length, promptTokens: record.tokens.prompt, completionTokens: record.tokens.completion, policyVersion: record.policy.version, recoveries: record.recoveries.length };
    },
  };
}
