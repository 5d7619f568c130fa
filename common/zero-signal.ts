/** Zero-signal GRPO groups: groups whose rewards are all equal, and what the coordinator does with them. Pure: used by
 * TrainingRunWorkflow and its tests.
 *
 * Dr. GRPO's advantage is A_i = r_i − mean(r) (no division by the standard deviation). When every reward of a group is
 * the same, every A_i is 0 and the group contributes no policy gradient: a learner step on it costs a forward and a
 * backward for nothing but the KL term. DAPO's dynamic sampling leaves such groups out of the step and keeps sampling
 * until the step has groupsPerStep groups with signal. */

/** Rewards closer than this count as equal. A reward is a sum of a few components (common/reward.ts), so two
 * totals of the same outcome differ by float rounding only (~1e-15); a gap under 1e-6 gives advantages under 1e-6,
 * which move the policy far less than the KL term does. */
export const ZERO_SIGNAL_EPSILON = 1e-6;

/** `training_groups.rejected_reason` of a group left out of training for zero signal: stored, never sent to Kafka,
 * never consumed by a step. */
export const ZERO_SIGNAL_DROPPED = 'zero-signal';

/** True when a group's rewards give no advantage: max(r) − min(r) ≤ ε (fewer than two rewards: nothing to compare,
 * so no signal either). */
export function isZeroSignal(rewards: readonly number[], epsilon = ZERO_SIGNAL_EPSILON): boolean {
  if (rewards.length < 2) return true;
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rewards) {
    if (!Number.isFinite(r)) throw new Error(`isZeroSignal: reward ${r} is not a finite number`);
    lo = Math.min(lo, r);
    hi = Math.max(hi, r);
  }
  return hi - lo <= epsilon;
}

/** What happens to a sealed group: 'queue' it for training, or 'drop' it (zero signal, dynamic sampling on).
 *
 * The guard: a run whose tasks all score alike (all too hard, a broken reward) would sample forever. Once `streak`
 * consecutive groups (this one included) had zero signal and the streak reached `patience`, zero-signal groups are
 * trained anyway until a group with signal breaks the streak. Training on them is harmless (zero advantage: only the
 * KL term acts) and keeps the run moving toward its `steps`, its evaluations and its report, where the share of
 * zero-signal groups says what happened; stopping would throw away a run that may be on a plateau that a few more
 * steps of KL and a new curriculum draw get it off. The progress query says when the guard is active. */
export function zeroSignalAction(g: { zeroSignal: boolean; dropEnabled: boolean; streak: number; patience: number }): 'queue' | 'drop' {
  if (!g.zeroSignal || !g.dropEnabled) return 'queue';
  return g.streak >= g.patience ? 'queue' : 'drop';
}

/** The run's zero-signal counters (carried across continue-as-new). */
export interface ZeroSignalCounts {
  /** Sealed groups seen, and how many of them had zero signal. */
  groups: number;
  zeroSignal: number;
  /** Zero-signal groups left out of training (dynamic sampling), and trained anyway (option off, or the guard). */
  dropped: number;
  trained: number;
  /** Consecutive zero-signal groups up to the newest sealed one. */
  streak: number;
  /** Dropped since the last committed step (the next step point's `zeroSignalDropped`). */
  droppedSinceStep: number;
  /** Zero-signal groups queued for training and not yet consumed by a step. */
  queuedIds: string[];
}

export const emptyZeroSignalCounts = (): ZeroSignalCounts => ({ groups: 0, zeroSignal: 0, dropped: 0, trained: 0, streak: 0, droppedSinceStep: 0, queuedIds: [] });

/** Folds one sealed group into the counters and returns what to do with it. */
export function foldSealedGroup(c: ZeroSignalCounts, g: { groupId: string; rewards: readonly number[]; dropEnabled: boolean; patience: number }): { counts: ZeroSignalCounts; action: 'queue' | 'drop'; zeroSignal: boolean } {
  const zeroSignal = isZeroSignal(g.rewards);
  const streak = zeroSignal ? c.streak + 1 : 0;
  const action = zeroSignalAction({ zeroSignal, dropEnabled: g.dropEnabled, streak, patience: g.patience });
  const counts: ZeroSignalCounts = {
    groups: c.groups + 1,
    zeroSignal: c.zeroSignal + (zeroSignal ? 1 : 0),
    dropped: c.dropped + (action === 'drop' ? 1 : 0),
    trained: c.trained + (zeroSignal && action === 'queue' ? 1 : 0),
    streak,
    droppedSinceStep: c.droppedSinceStep + (action === 'drop' ? 1 : 0),
    queuedIds: zeroSignal && action === 'queue' ? [...c.queuedIds, g.groupId] : c.queuedIds,
  };
  return { counts, action, zeroSignal };
}

/** The progress query's line when the guard is active, else null. */
export function zeroSignalWarning(c: ZeroSignalCounts, patience: number, dropEnabled: boolean): string | null {
  if (!dropEnabled || c.streak < patience) return null;
  return `no reward signal in the last ${c.streak} groups (patience ${patience}): training on zero-signal groups until a group with signal comes`;
}
