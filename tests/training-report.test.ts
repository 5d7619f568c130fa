/** The training report (pure rendering) and the CLI's progress line, on hand-made step data. */
import { buildTrainingReport, lineChart, renderTrainingHtml } from '../activities/training-report';
import type { StepPoint, StepResult, TrainingProgress } from '../common/training';
import { formatTrainingProgress } from '../workers/commands/train';

const point = (step: number, over: Partial<StepPoint> = {}): StepPoint => ({
  step, version: step, meanReward: -0.5 + step / 10, passRate: step / 4, trained: 1, staleGroups: 0, rejectedTrajectories: 0, klMean: 0.01, clipLow: 0, clipHigh: 0.02,
  ratioMean: 1, offpolicyWeightMean: 1, busyFraction: 0.5, lag0MeanAbsLogRatio: null, curriculumPhase: 'acquisition', share3070: 0.4, validationPass1: null, atMs: 0, ...over,
});
const result = (step: number, lag: Record<string, number>, rejected: StepResult['rejectedGroups'], refused: StepResult['rejectedTrajectories']): StepResult => ({
  stepId: `r:${step}`, step, versionBefore: step - 1, versionAfter: step, adapterPath: null, trainedGroups: ['g'], rejectedGroups: rejected, rejectedTrajectories: refused,
  lagHistogram: lag, meanReward: 0, passRate: 0, metrics: null, lag0: null, busyMs: 1,
});

describe('training report', () => {
  it('sums lag histograms, stale groups and refusal reasons over steps', () => {
    const r = buildTrainingReport('run', [point(1), point(2)], [
      result(1, { '0': 4 }, [], [{ episodeId: 'e', reason: 'misaligned-logprobs', detail: 'turn 1' }]),
      result(2, { '0': 2, '5': 2 }, [{ groupId: 'g2', reason: 'policy-lag', lag: 5 }], []),
    ], 'T');
    expect(r.lagHistogram).toEqual({ '0': 6, '5': 2 });
    expect(r.staleGroupsRejected).toBe(1);
    expect(r.rejectedTrajectories).toEqual({ 'misaligned-logprobs': 1 });
    expect(r.zeroSignal).toEqual({ dropped: 0, trained: 0, groups: 0, share: null }); // points from before the count
  });

  it('reports the share of zero-signal groups over the steps that counted them', () => {
    const r = buildTrainingReport('run', [point(1), point(2, { trained: 2, zeroSignalDropped: 3, zeroSignalTrained: 1 }), point(3, { trained: 2, zeroSignalDropped: 1, zeroSignalTrained: 0 })], [], 'T');
    expect(r.zeroSignal).toEqual({ dropped: 4, trained: 1, groups: 8, share: 5 / 8 });
    expect(renderTrainingHtml(r)).toContain('zero-signal groups: 5 of 8 (63 %), 4 left out, 1 trained');
  });

  it('renders one point per step per series, and breaks lines at missing values', () => {
    const svg = lineChart('t', [1, 2, 3], [{ name: 'a', values: [1, null, 3] }]);
    expect(svg.match(/<circle/g)).toHaveLength(2);
    expect(svg).toContain('d="M'); // two separate segments, each starting with a move
    expect((svg.match(/M[\d.]+,[\d.]+/g) ?? []).length).toBe(2);
    const html = renderTrainingHtml(buildTrainingReport('run<1>', [point(1), point(2, { validationPass1: 0.5 })], [], 'T'));
    expect(html).toContain('Training run run&lt;1&gt;');
    expect(html.match(/<svg/g)).toHaveLength(9); // BC loss is the ninth chart
    expect(html).toContain('Validation pass@1');
  });

  it('formats the live progress line', () => {
    const p = {
      runId: 'r', phase: 'running', policyVersion: 3, step: 3, steps: 10, poolSize: 8, running: 5, episodesDone: 40, infraFailures: 0, groupsOpen: 2, groupsQueued: 1,
      groupsFailed: 0, staleGroupsRejected: 1, rolloutsPerSecond: 0.25, lagHistogram: {}, curriculum: { phase: 'acquisition' }, lastStep: point(3), startedAtMs: 0,
    } as unknown as TrainingProgress;
    expect(formatTrainingProgress(p)).toBe('step 3/10 · policy v3 · 5/8 running · groups 2 open, 1 queued, 0 failed · 40 episodes (0.250/s) · stale 1 · reward -0.200 · pass 75% · acquisition · running');
  });

  it('shows zero-signal groups and the guard in the progress line', () => {
    const p = {
      runId: 'r', phase: 'running', policyVersion: 1, step: 1, steps: 4, poolSize: 2, running: 2, episodesDone: 24, infraFailures: 0, groupsOpen: 1, groupsQueued: 0,
      groupsFailed: 0, staleGroupsRejected: 0, rolloutsPerSecond: 0.5, lagHistogram: {}, curriculum: { phase: 'acquisition' }, lastStep: null, startedAtMs: 0,
      zeroSignal: { groups: 5, zeroSignal: 4, share: 0.8, dropped: 2, trained: 2, streak: 3, patience: 2, dropEnabled: true, warning: 'no reward signal in the last 3 groups' },
    } as unknown as TrainingProgress;
    expect(formatTrainingProgress(p)).toBe(
      'step 1/4 · policy v1 · 2/2 running · groups 1 open, 0 queued, 0 failed · 24 episodes (0.500/s) · stale 0 · zero-signal 4/5 groups (80%, 2 dropped) · WARNING no reward signal in the last 3 groups · acquisition · running',
    );
  });
});
