/**
 * A training run's rollouts: P slots, each a child EpisodeWorkflow; a finished slot starts the next episode at once (no
 * batch barrier), into the group workflows/training/groups.ts picks, with the newest published adapter. An
 * infrastructure failure is retried in a fresh episode and never scored; its cause goes to the run's health guards
 * (workflows/training/run-health.ts). Deterministic workflow code.
 */
import { condition, startChild } from '@temporalio/workflow';
import { episodeFailureCause } from '../../common/circuit-breaker';
import { policySpecFor, type GroupEpisode } from '../../common/training';
import { EpisodeWorkflow } from '../episode';
import { countInfraFailure, expiredGroup, groupAvailable, groupForNextEpisode, nextSealDeadline, sealGroup, sizeOf } from './groups';
import { onEpisodeFailure, onEpisodeScored, rolloutsPaused } from './run-health';
import type { OpenGroup, Run } from './run-state';

/** The policy spec of a version: the base model at 0 (unless the run starts from an adapter), else the run's adapter. */
export const policyAt = (run: Run, version: number): string => policySpecFor(run.cfg.policy, version, run.scope, run.fromInit);

/** Rollouts go on while the run has steps left in this execution and the learner has not failed. */
export const rolloutsWanted = (run: Run): boolean => {
  const { live } = run;
  return !live.stopping && !live.chunkOver && run.state.step < run.cfg.steps && live.learnerFailed === undefined;
};

/** A slot may take an episode: not paused, below the high mark, no attestation pending, a slot free. */
const mayStart = (run: Run): boolean =>
  rolloutsWanted(run) && !rolloutsPaused(run) && !run.live.blocked && run.live.attestRequest === null && run.live.running < run.live.poolSize;

/** The episode slots: start episodes while slots are free, seal groups past their timeout. Returns the episodes still
 * running when the rollouts end (the caller drains them before continue-as-new). */
export async function runRollouts(run: Run): Promise<Set<Promise<void>>> {
  const inFlight = new Set<Promise<void>>();
  while (rolloutsWanted(run)) {
    const wait = nextSealDeadline(run, Date.now());
    const wake = () => !rolloutsWanted(run) || (mayStart(run) && groupAvailable(run)) || expiredGroup(run, Date.now()) !== null;
    const woke = wait === undefined ? (await condition(wake), true) : await condition(wake, wait);
    const late = expiredGroup(run, Date.now());
    if (late) {
      await sealGroup(run, late, 'partial-timeout');
      continue;
    }
    if (!woke || !mayStart(run)) continue;
    const g = groupForNextEpisode(run, Date.now());
    if (!g) continue;
    const p: Promise<void> = runEpisode(run, g).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
  return inFlight;
}

/** One episode of group g at the current version; scored into the group, or counted as an infrastructure failure. */
async function runEpisode(run: Run, g: OpenGroup): Promise<void> {
  const { state, cfg, live } = run;
  const k = g.nextEpisode++;
  g.inFlight++;
  live.running++;
  const policy = policyAt(run, state.version);
  let outcome: GroupEpisode | null = null;
  let error: string | null = null;
  try {
    const child = await startChild(EpisodeWorkflow, {
      workflowId: `${g.groupId}.e${k}`,
      args: [{ taskId: g.taskId, policy, toolset: cfg.toolset, limits: cfg.limits, seed: state.groupSeq * 1000 + k, evaluationId: run.runId, arm: g.groupId, sandboxScheduleToStartSeconds: cfg.sandboxScheduleToStartSeconds }],
    });
    const result = await child.result();
    if (result.exitReason !== 'error') {
      const scored = await run.store.scoreEpisode({ episodeId: result.episodeId, taskId: g.taskId });
      if (scored.scorable) outcome = scored.episode;
      else error = `episode ${result.episodeId} is not scorable`;
    } else error = result.error ?? `episode ${result.episodeId} ended in an error`;
  } catch (e) {
    error = causeChain(e); // the child failed: infrastructure, never a 0 reward
  } finally {
    g.inFlight--;
    live.running--;
    state.episodesDone++;
  }
  if (!state.open.includes(g)) return; // sealed on timeout or failed meanwhile
  if (!outcome) {
    const cause = run.guards ? episodeFailureCause(error) : null;
    if (cause && !onEpisodeFailure(run, cause, policy)) return; // retried once the adapter is served again
    countInfraFailure(run, g, cause);
    return;
  }
  onEpisodeScored(run);
  g.done.push(outcome);
  if (g.done.length >= sizeOf(run, g)) await sealGroup(run, g, 'full');
}

function causeChain(e: unknown): string {
  const parts: string[] = [];
  for (let x: unknown = e; x instanceof Error && parts.length < 5; x = (x as Error & { cause?: unknown }).cause) parts.push(x.message);
  return parts.join(': ') || String(e);
}
