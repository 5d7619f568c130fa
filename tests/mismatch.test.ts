/** The learner's mismatch metrics where researchers look: `train status`'s fragment and the training report's charts,
 * on hand-made TrainMetrics (the field names and bucket order of native/debugrl_native/learner/mismatch.py). */
import { buildTrainingReport, renderTrainingHtml } from '../activities/training-report';
import { bucketSeries, formatMismatch, mismatchOf } from '../common/mismatch';
import type { StepPoint, StepResult } from '../common/training';

const metrics = (k3lag0: number | null, masked: number) => ({
  loss_total: 0.1, kl_mean: 0.01, offpolicy_mode: 'token_mask', mismatch_k3: 2e-3, mismatch_k3_lag0: k3lag0, offpolicy_ess: 0.875,
  masked_token_frac: masked, masked_response_frac: 0.25, clipped_token_frac: 0,
  mismatch_k3_by_lag: [k3lag0, null, 5e-2, null, null], masked_frac_by_lag: [0, null, masked, null, null],
  mismatch_k3_by_turn: [1e-3, 3e-3, null, null, null, null], masked_frac_by_turn: [0, masked, null, null, null, null],
  mismatch_k3_by_length: [2e-3, null, null, null], masked_frac_by_length: [masked, null, null, null],
});
const point = (step: number): StepPoint => ({
  step, version: step, meanReward: 0, passRate: 0, trained: 1, staleGroups: 0, rejectedTrajectories: 0, klMean: 0.01, clipLow: 0, clipHigh: 0,
  ratioMean: 1, offpolicyWeightMean: 1, busyFraction: 0.5, lag0MeanAbsLogRatio: null, curriculumPhase: 'acquisition', share3070: 0.4, validationPass1: null, atMs: 0,
});
const result = (step: number, m: StepResult['metrics']): StepResult => ({
  stepId: `r:${step}`, step, versionBefore: step - 1, versionAfter: step, adapterPath: null, trainedGroups: ['g'], rejectedGroups: [], rejectedTrajectories: [],
  lagHistogram: {}, meanReward: 0, passRate: 0, metrics: m, lag0: null, busyMs: 1,
});

describe('mismatch metrics', () => {
  it('reads them from a step and formats the status fragment', () => {
    const m = mismatchOf(metrics(4e-4, 0.125));
    expect(m).not.toBeNull();
    expect(formatMismatch(m!)).toBe(' · token_mask · k3 lag0 4.0e-4 all 2.0e-3 · ESS 0.88 · masked 13% tok / 25% resp');
    expect(formatMismatch(mismatchOf(metrics(null, 0))!)).toContain('k3 lag0 —'); // nothing at lag 0: not a perfect 0
    expect(mismatchOf({ loss_total: 1 })).toBeNull(); // a step from before the metrics
    expect(mismatchOf(null)).toBeNull();
  });

  it('charts one series per bucket that was measured, named in mismatch.py order', () => {
    const steps = [mismatchOf(metrics(4e-4, 0.1)), null, mismatchOf(metrics(1e-3, 0.2))];
    expect(bucketSeries(steps, 'lag', 'k3')).toEqual([
      { name: 'lag 0', values: [4e-4, null, 1e-3] },
      { name: 'lag 2', values: [5e-2, null, 5e-2] },
    ]);
    expect(bucketSeries(steps, 'turn', 'masked').map((s) => s.name)).toEqual(['turn 0', 'turn 1']);
  });

  it('adds the mismatch charts to the training report, and none for steps without the metrics', () => {
    const r = buildTrainingReport('run', [point(1), point(2)], [result(1, metrics(4e-4, 0.1)), result(2, metrics(6e-4, 0.2))], 'T');
    expect(r.mismatch?.map((x) => x.step)).toEqual([1, 2]);
    const html = renderTrainingHtml(r);
    for (const title of ['Mismatch k3 KL(served ‖ learner)', 'Off-policy correction (token_mask): kept and ESS', 'Mismatch k3 by policy lag', 'Mismatch k3 by turn', 'Mismatch k3 by trajectory length'])
      expect(html).toContain(title);
    expect(renderTrainingHtml(buildTrainingReport('run', [point(1)], [result(1, { loss_total: 1 })], 'T'))).not.toContain('Mismatch k3');
  });
});
