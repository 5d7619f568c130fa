/** The advantage the learner trains each trajectory of a GRPO group on, computed in TypeScript for display (the
 * training page's group table). It mirrors native/debugrl_native/learner/loss.py with the learner's defaults
 * (config.py LossConfig): Dr. GRPO's centred reward, no division by the group's standard deviation
 * (`normalize_advantages_by_std = False`), times the mild length weight (`length_weights`, a = 0.25):
 *
 *   A_i  = r_i − mean_j r_j
 *   w_i  = L_i^−a / mean_j L_j^−a,   L_i = max(1, generated tokens of trajectory i)
 *   A'_i = A_i · w_i
 *
 * tests/learner-advantage.test.ts holds the values against hand-computed ones (cross-checked once against the Python
 * functions) and the power against the learner's default in the exported schema. What this does not model: the
 * learner leaves out stale (policy lag) and over-long trajectories after computing these, so their A'_i is never
 * trained on, and the test-only `debug_negate_advantages` flips every sign. */
import { isZeroSignal } from './zero-signal';

/** loss.py LossConfig.length_weight_power's default: a 16× longer trajectory gets half the weight. */
export const LENGTH_WEIGHT_POWER = 0.25;

export interface LearnerAdvantageInput {
  reward: number;
  /** Generated (completion) tokens over all of the trajectory's turns: the learner's L_i. */
  completionTokens: number;
}

export interface LearnerAdvantages {
  /** A_i = r_i − mean(r): the Dr. GRPO advantage before the length weight. */
  centred: number[];
  /** w_i, mean exactly one within the group. */
  lengthWeights: number[];
  /** A'_i = A_i · w_i: what the clipped surrogate multiplies. */
  advantages: number[];
  /** True when the rewards are all equal (common/zero-signal.ts): every A'_i is 0 and the group moves nothing. */
  zeroSignal: boolean;
}

/** A'_i for one group, in the group's order. */
export function learnerAdvantages(group: readonly LearnerAdvantageInput[], power = LENGTH_WEIGHT_POWER): LearnerAdvantages {
  for (const t of group) {
    if (!Number.isFinite(t.reward)) throw new Error(`learnerAdvantages: reward ${t.reward} is not a finite number`);
    if (!Number.isFinite(t.completionTokens) || t.completionTokens < 0) {
      throw new Error(`learnerAdvantages: completion token count ${t.completionTokens} is not a count`);
    }
  }
  if (!group.length) return { centred: [], lengthWeights: [], advantages: [], zeroSignal: true };
  const mean = group.reduce((s, t) => s + t.reward, 0) / group.length;
  const centred = group.map((t) => t.reward - mean);
  const raw = group.map((t) => Math.max(1, t.completionTokens) ** -power);
  const rawMean = raw.reduce((s, x) => s + x, 0) / raw.length;
  const lengthWeights = raw.map((x) => x / rawMean);
  return {
    centred,
    lengthWeights,
    advantages: centred.map((a, i) => a * lengthWeights[i]!),
    zeroSignal: isZeroSignal(group.map((t) => t.reward)),
  };
}
