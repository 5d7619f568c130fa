/** The learner's per-step mismatch metrics (native/debugrl_native/learner/mismatch.py), as `train status` and the
 * training report show them. They arrive inside a step's TrainMetrics (snake_case, stored in training_steps.result).
 *
 * k3 = rho - 1 - log rho with rho = pi_learner / pi_served over the served tokens: an estimate of
 * KL(pi_served || pi_learner). At lag 0 only serving numerics cause it (NeMo-RL treats < 1e-3 as healthy). */
import { z } from 'zod';

/** Bucket labels, in the order mismatch.py writes its lists (LAG_BUCKETS, TURN_BUCKETS, LENGTH_BUCKETS there). */
export const MISMATCH_BUCKETS = {
  lag: ['0', '1', '2', '3', '4+'],
  turn: ['0', '1', '2-3', '4-7', '8-15', '16+'],
  length: ['<256', '256-1023', '1024-4095', '4096+'],
} as const;
export type MismatchDimension = keyof typeof MISMATCH_BUCKETS;

const maybe = z.number().nullable();
export const MismatchMetrics = z.object({
  offpolicy_mode: z.string(),
  mismatch_k3: maybe,
  mismatch_k3_lag0: maybe,
  offpolicy_ess: z.number(),
  masked_token_frac: z.number(),
  masked_response_frac: z.number(),
  clipped_token_frac: z.number(),
  mismatch_k3_by_lag: z.array(maybe),
  masked_frac_by_lag: z.array(maybe),
  mismatch_k3_by_turn: z.array(maybe),
  masked_frac_by_turn: z.array(maybe),
  mismatch_k3_by_length: z.array(maybe),
  masked_frac_by_length: z.array(maybe),
});
export type MismatchMetrics = z.infer<typeof MismatchMetrics>;

/** The mismatch part of a step's metrics; null for a step without them (nothing trainable, or a learner before them). */
export function mismatchOf(metrics: Record<string, unknown> | null | undefined): MismatchMetrics | null {
  const parsed = MismatchMetrics.safeParse(metrics ?? null);
  return parsed.success ? parsed.data : null;
}

const exp = (x: number | null) => (x === null ? '—' : x.toExponential(1));
const pct = (x: number) => `${(100 * x).toFixed(0)}%`;

/** One `train status` fragment: mode, lag-0 and overall k3, ESS, masked/clipped shares. */
export function formatMismatch(m: MismatchMetrics): string {
  const masked = m.masked_token_frac || m.masked_response_frac ? ` · masked ${pct(m.masked_token_frac)} tok / ${pct(m.masked_response_frac)} resp` : '';
  const clipped = m.clipped_token_frac ? ` · clipped ${pct(m.clipped_token_frac)}` : '';
  return ` · ${m.offpolicy_mode} · k3 lag0 ${exp(m.mismatch_k3_lag0)} all ${exp(m.mismatch_k3)} · ESS ${m.offpolicy_ess.toFixed(2)}${masked}${clipped}`;
}

/** Chart series over steps: one series per bucket of `dim`, for k3 or the masked share. */
export function bucketSeries(steps: (MismatchMetrics | null)[], dim: MismatchDimension, what: 'k3' | 'masked'): { name: string; values: (number | null)[] }[] {
  const key = `${what === 'k3' ? 'mismatch_k3' : 'masked_frac'}_by_${dim}` as const;
  return MISMATCH_BUCKETS[dim]
    .map((label, b) => ({ name: `${dim} ${label}`, values: steps.map((m) => m?.[key]?.[b] ?? null) }))
    .filter((s) => s.values.some((v) => v !== null));
}
