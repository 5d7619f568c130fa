/**
 * The mismatch alarm: the served policy and the learner disagree on the very tokens the server sampled.
 *
 *   k3 = rho - 1 - log rho, rho = pi_learner / pi_served, averaged over lag-0 tokens (learner/mismatch.py
 *   `mismatch_k3_lag0`): an estimate of KL(pi_served || pi_learner) that only serving can cause at lag 0 (different
 *   weights, a lost or stale adapter, another model folder, another precision). NeMo-RL calls < 1e-3 healthy.
 *
 * A step whose k3 is above the threshold extends the streak, one at or below it ends the streak, and a step without a
 * lag-0 measurement (no lag-0 tokens, or nothing trainable) leaves it as it is: it is no evidence either way. The alarm
 * trips when the streak reaches K steps. Pure (workflow code imports it).
 */

export interface AlarmState {
  streak: number;
  last: number | null;
  trips: number;
}

export const quietAlarm = (): AlarmState => ({ streak: 0, last: null, trips: 0 });

export interface AlarmSettings {
  /** The k3 threshold. */
  maxK3: number;
  /** K consecutive steps over it; 0 turns the alarm off. */
  steps: number;
}

export function foldMismatchStep(s: AlarmState, k3Lag0: number | null, cfg: AlarmSettings): { state: AlarmState; tripped: boolean } {
  if (cfg.steps === 0 || k3Lag0 === null) return { state: { ...s, last: k3Lag0 ?? s.last }, tripped: false };
  // NaN or an infinite k3 is garbage from the server: over any threshold.
  if (Number.isFinite(k3Lag0) && k3Lag0 <= cfg.maxK3) return { state: { ...s, streak: 0, last: k3Lag0 }, tripped: false };
  return over(s, k3Lag0, cfg);
}

function over(s: AlarmState, k3: number, cfg: AlarmSettings): { state: AlarmState; tripped: boolean } {
  const streak = s.streak + 1;
  const tripped = streak >= cfg.steps;
  return { state: { streak, last: k3, trips: s.trips + (tripped ? 1 : 0) }, tripped };
}

/** The pause text: the values and how to go on. */
export function alarmPauseCause(s: AlarmState, cfg: AlarmSettings): string {
  return `lag-0 mismatch k3 ${s.last === null ? 'n/a' : s.last.toExponential(2)} above ${cfg.maxK3.toExponential(1)} for ${s.streak} step(s) in a row (alarm at ${cfg.steps}): the server does not serve the learner's policy; check the served adapter and model folder, then send the resume signal`;
}

/** After the resume signal: the streak starts again (a further K bad steps pause again). */
export const rearmed = (s: AlarmState): AlarmState => ({ ...s, streak: 0 });
