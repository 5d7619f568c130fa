/**
 * Dynamic group size: how many episodes a new GRPO group of a task gets. Pure: TrainingRunWorkflow calls it when it
 * opens a group.
 *
 * GRPO's advantage is a reward minus its group's mean, so a group whose episodes all pass or all fail (all rewards
 * equal) has no signal: its rollouts are wasted, and with dynamic sampling (DAPO; common/zero-signal.ts) it is dropped
 * and another group sampled. For a task the policy solves with probability p, a group of n independent episodes has no
 * signal with probability
 *
 *     P0(p, n) = p^n + (1 - p)^n,
 *
 * smallest at p = 1/2 and rising towards 1 as p nears 0 or 1. A task in the seed's 30–70 % band needs few episodes for
 * a contrast; a task at 90 % needs many. So each new group gets the smallest n in the run's range [min, max] with
 * P0(p, n) <= target (0.1 by default), where p is the curriculum's estimate for its task (common/curriculum.ts). A task
 * with no evidence yet, or one no n in the range brings under the target, gets max.
 *
 *   p = 0.5: P0(0.5, 4) = 0.125, P0(0.5, 5) = 0.0625  ->  5
 *   p = 0.7: P0(0.7, 6) = 0.118, P0(0.7, 7) = 0.083   ->  7
 *   p = 0.9: P0 <= 0.1 needs n = 22                    ->  max
 *
 * The range: the general configuration's maximum is 16 and its minimum the run's groupSize; a hardware profile fixes
 * both (common/hardware-profiles.ts: the seed's 3×H200 run at 12). A run with neither has today's fixed groupSize.
 * Partial sealing stays relative to each group's own size: two thirds of it by default (the seed: 8 of 12).
 */
import { z } from 'zod';
import { estimatedSuccess, type CurriculumState } from './curriculum';
import { hardwareProfile, type HardwareProfileName } from './hardware-profiles';

/** The general configuration's largest group. */
export const DEFAULT_GROUP_SIZE_MAX = 16;
/** The zero-signal chance a group is sized to stay under. */
export const ZERO_SIGNAL_TARGET = 0.1;

export interface GroupSizeBounds {
  min: number;
  max: number;
}

const size = z.number().int().min(2).max(64);
/** A run's range as given: `min` absent is the run's groupSize (checked against max in TrainingRunInput). */
export const GroupSizeRange = z
  .object({ min: size.optional(), max: size.default(DEFAULT_GROUP_SIZE_MAX) })
  .strict()
  .refine((r) => r.min === undefined || r.min <= r.max, { path: ['max'], message: 'must be at least min' });
export type GroupSizeRange = z.infer<typeof GroupSizeRange>;

/** What of a run's configuration sizes its groups. */
export interface GroupSizeSettings {
  groupSize: number;
  groupSizeRange?: GroupSizeRange;
  profile?: HardwareProfileName;
  minToSeal?: number;
}

/** The chance that n episodes of a task solved with probability p all pass or all fail. */
export function zeroSignalChance(p: number, n: number): number {
  return p ** n + (1 - p) ** n;
}

/** The size of a new group: the smallest n in [min, max] whose zero-signal chance is at most `target`; max when p is
 * unknown (null) or no n in the range gets there. */
export function dynamicGroupSize(bounds: GroupSizeBounds, p: number | null, target = ZERO_SIGNAL_TARGET): number {
  if (!Number.isInteger(bounds.min) || !Number.isInteger(bounds.max) || bounds.min < 1 || bounds.min > bounds.max) throw new RangeError(`group size range: need whole numbers 1 <= min <= max, got ${bounds.min}..${bounds.max}`);
  if (p === null) return bounds.max;
  if (!(p >= 0 && p <= 1)) throw new RangeError(`success estimate must be in [0, 1], got ${p}`);
  for (let n = bounds.min; n <= bounds.max; n++) if (zeroSignalChance(p, n) <= target) return n;
  return bounds.max;
}

/** The run's range: the profile's when it names one, else its own range (min defaulting to groupSize), else null
 * (every group has groupSize episodes, as before dynamic sizing). */
export function groupSizeBounds(cfg: GroupSizeSettings): GroupSizeBounds | null {
  if (cfg.profile !== undefined) return { ...hardwareProfile(cfg.profile).groupSize };
  if (cfg.groupSizeRange === undefined) return null;
  return { min: cfg.groupSizeRange.min ?? cfg.groupSize, max: cfg.groupSizeRange.max };
}

/** The curriculum's success estimate for a task, or null while it has no evidence (no finished group and no
 * calibration prior): the Beta prior's 50 % is not a measurement. */
export function successEstimate(curriculum: CurriculumState, taskId: string): number | null {
  const t = curriculum.tasks.find((x) => x.id === taskId);
  return t && t.successes + t.failures > 0 ? estimatedSuccess(t, curriculum.config) : null;
}

/** Episodes a group of `groupSize` needs to seal partially: an explicit minToSeal scaled from the run's groupSize to this
 * group's (equal to it at groupSize), else two thirds of the group. */
export function minToSealFor(groupSize: number, cfg: GroupSizeSettings): number {
  const wanted = cfg.minToSeal !== undefined ? Math.max(2, Math.ceil((groupSize * cfg.minToSeal) / cfg.groupSize)) : Math.ceil((2 * groupSize) / 3);
  return Math.min(groupSize, wanted);
}
