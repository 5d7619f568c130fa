/**
 * A training run's GRPO groups: which group the next episode joins, sealing a group (full, or partial after the seal
 * timeout) into a record in PostgreSQL and Kafka, and failing one that ran out of infrastructure retries.
 *
 *   assignment  the open group nearest completion, counting in-flight episodes, that can take one more
 *               (`fill-nearest`, the default; 'round-robin' deals in turn, common/assignment.ts); a new group (task
 *               from the curriculum) only when no open group can take one more and the run still needs one;
 *   sizing      with a group-size range (patched 'dynamic-group-size'), a new group gets the fewest episodes that make
 *               it unlikely to have no signal for its task (common/group-size.ts); it seals full at that size, and
 *               partially at its own minToSeal;
 *   sealing     sealGroup stores the record; a zero-signal group (all rewards equal) is stored but not queued while
 *               dynamic sampling is on (common/zero-signal.ts), and another group is sampled in its place;
 *   backpressure at the queue's high mark no episode starts; at or under the low mark assignment resumes.
 *
 * Deterministic workflow code.
 */
import { nextGroup } from '../../common/assignment';
import { foldGroupEpisodes, pickTask } from '../../common/curriculum';
import { dynamicGroupSize, minToSealFor, successEstimate } from '../../common/group-size';
import type { FailureCause } from '../../common/circuit-breaker';
import { foldSealedGroup } from '../../common/zero-signal';
import { onGroupFailed, onGroupSealed } from './run-health';
import { nextRandom, type OpenGroup, type Run } from './run-state';

/** Groups the remaining steps still need, beyond those queued, sealing or open: none are opened past the run's end. */
export function needsNewGroup(run: Run): boolean {
  const { state, cfg, live } = run;
  return state.queued.length + (run.countSealing ? live.sealing : 0) + state.open.length < (cfg.steps - state.step) * cfg.groupsPerStep;
}

/** Episodes g seals full at: its own size when the run sizes groups dynamically, else the run's groupSize. */
export const sizeOf = (run: Run, g: OpenGroup): number => g.size ?? run.cfg.groupSize;
/** Episodes g needs to seal on timeout: relative to its own size (the seed: 8 of 12). */
const minToSealOf = (run: Run, g: OpenGroup): number => (g.size === undefined ? run.settings.minToSeal : minToSealFor(g.size, run.cfg));

function pickGroup(run: Run): number | 'new' | null {
  const { state, cfg, live } = run;
  return nextGroup(cfg.assignment, {
    // nextGroup compares every group with one groupSize: a group of another size is shown by its room left, shifted
    // onto groupSize (done + groupSize - size), so "has room" and "nearest completion" hold per group. At groupSize the
    // shift is 0, as before dynamic sizing.
    groups: state.open.map((g) => ({ done: g.done.length + cfg.groupSize - sizeOf(run, g), inFlight: g.inFlight })),
    groupSize: cfg.groupSize,
    mayOpen: needsNewGroup(run),
    poolSize: live.poolSize,
    last: state.open.findIndex((g) => g.groupId === live.lastAssigned),
  });
}

/** Whether some group (open or new) can take the next episode. */
export const groupAvailable = (run: Run): boolean => pickGroup(run) !== null;

/** The group that takes the next episode, opening a new one (its task drawn from the curriculum) if needed. */
export function groupForNextEpisode(run: Run, nowMs: number): OpenGroup | null {
  const { state } = run;
  const pick = pickGroup(run);
  if (pick === null) return null;
  if (pick !== 'new') {
    run.live.lastAssigned = state.open[pick].groupId;
    return state.open[pick];
  }
  const { taskId } = pickTask(state.curriculum, nextRandom(state));
  const g: OpenGroup = { groupId: `${run.runId}.${run.firstExecutionRunId.slice(0, 6)}.g${++state.groupSeq}`, taskId, done: [], inFlight: 0, infraFailures: 0, nextEpisode: 0, openedAtMs: nowMs };
  // Sized for its task as the curriculum knows it now (common/group-size.ts).
  if (run.groupSizes) g.size = dynamicGroupSize(run.groupSizes, successEstimate(state.curriculum, taskId));
  state.open.push(g);
  run.live.lastAssigned = g.groupId;
  return g;
}

/** The first open group past its seal timeout that has at least its minToSeal episodes. */
export function expiredGroup(run: Run, nowMs: number): OpenGroup | null {
  const { state, cfg } = run;
  return state.open.find((g) => g.done.length >= minToSealOf(run, g) && nowMs - g.openedAtMs >= cfg.sealTimeoutSeconds * 1000) ?? null;
}

/** Milliseconds until the next partial seal is due, or undefined when no open group can seal partially. */
export function nextSealDeadline(run: Run, nowMs: number): number | undefined {
  const { state, cfg } = run;
  const deadlines = state.open.filter((g) => g.done.length >= minToSealOf(run, g)).map((g) => g.openedAtMs + cfg.sealTimeoutSeconds * 1000 - nowMs);
  return deadlines.length ? Math.max(0, Math.min(...deadlines)) : undefined;
}

export async function sealGroup(run: Run, g: OpenGroup, reason: 'full' | 'partial-timeout'): Promise<void> {
  const { state, live, settings } = run;
  state.open = state.open.filter((x) => x !== g);
  live.sealing++;
  // A group being sealed already counts toward the high mark: no episode starts while its record is written.
  const wasBlocked = live.blocked;
  if (run.queueAccounting && state.queued.length + live.sealing >= settings.highWater) live.blocked = true;
  // Decided as the group seals, in sealing order, so the streak is the order groups came in.
  const signal = foldSealedGroup(state.zeroSignal!, { groupId: g.groupId, rewards: g.done.map((e) => e.reward), dropEnabled: run.dropZeroSignal, patience: settings.zeroSignalPatience });
  state.zeroSignal = signal.counts;
  const dropped = signal.action === 'drop';
  await run.store
    .sealGroup({ runId: run.runId, groupId: g.groupId, taskId: g.taskId, episodes: g.done, sealedReason: reason, infraFailures: g.infraFailures, ...(dropped ? { dropped: 'zero-signal' as const } : {}) })
    .finally(() => live.sealing--);
  state.curriculum = foldGroupEpisodes(state.curriculum, g.taskId, g.done);
  onGroupSealed(run);
  if (dropped) {
    // Stored for the record and the curriculum; the rollout loop opens another group in its place. The mark this
    // group reached while sealing was never a queued group: lift the block it set, or a run whose queue is empty
    // would wait forever for a step.
    if (!wasBlocked && state.queued.length + live.sealing < settings.highWater) live.blocked = false;
    return;
  }
  state.queued.push(g.groupId);
  if (state.queued.length >= settings.highWater) live.blocked = true;
}

/** An infrastructure failure of one of g's episodes: retried in a fresh episode until the group runs out of retries,
 * then the whole group fails (never a biased partial group, never a 0 reward). */
export function countInfraFailure(run: Run, g: OpenGroup, cause: FailureCause | null): void {
  run.state.infraFailures++;
  g.lastFailure = cause;
  if (++g.infraFailures <= run.cfg.infraRetries) return;
  run.state.open = run.state.open.filter((x) => x !== g);
  run.state.groupsFailed++;
  if (cause) onGroupFailed(run, cause);
}
