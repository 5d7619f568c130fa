/** The training run's health rules as pure functions: the circuit breaker's causes, streak and half-open state
 * (common/circuit-breaker.ts), the mismatch alarm's streak (common/mismatch-alarm.ts), and `train status`'s reading
 * of Temporal's workflow status. The workflow around them: tests/training-run-guards.test.ts. */
import { breakerPauseCause, closedBreaker, episodeFailureCause, foldFailedGroup, foldSealedGroupOk, halfOpen } from '../common/circuit-breaker';
import { foldMismatchStep, quietAlarm, rearmed } from '../common/mismatch-alarm';
import { TrainingRunInput } from '../common/training';
import { formatRunState, trainingInputFrom } from '../workers/commands/train';

/** What the embedded server (native inference/engine.py) says, as the policy activity and the episode pass it on. */
const served404 = (name: string) =>
  `policyReply: policy server answered HTTP 404: {"error": {"message": "model: '${name}' is neither 'default' nor a loaded adapter (loaded: none)", "type": "invalid_request_error"}}`;

describe('circuit breaker causes', () => {
  it('reads the 404 for an adapter the server does not hold, keyed by the adapter', () => {
    const c = episodeFailureCause(served404('run-a--policy-v1'));
    expect(c).toMatchObject({ kind: 'adapter-not-served', key: 'adapter-not-served:run-a--policy-v1' });
    expect(episodeFailureCause(served404('run-a--policy-v2')).key).not.toBe(c.key);
  });

  it('tells an unreachable policy server from a failing one and from the sandbox', () => {
    expect(episodeFailureCause('policyReply: fetch failed: connect ECONNREFUSED 127.0.0.1:8765')).toMatchObject({ kind: 'policy-server-unreachable', key: 'policy-server-unreachable' });
    expect(episodeFailureCause('policyReply: policy server answered HTTP 503: overloaded')).toMatchObject({ kind: 'policy-server-error', key: 'policy-server-error:503' });
    expect(episodeFailureCause('openSandbox: SandboxUnavailable: bubblewrap could not start')).toMatchObject({ kind: 'sandbox', key: 'sandbox' });
  });

  it('keys other errors by their text without digits, and survives a missing message', () => {
    const a = episodeFailureCause('finishEpisode: row 17 missing');
    expect(a.kind).toBe('other');
    expect(episodeFailureCause('finishEpisode: row 23 missing').key).toBe(a.key);
    expect(episodeFailureCause('finishEpisode: table gone').key).not.toBe(a.key);
    expect(episodeFailureCause(null).detail).toMatch(/without an error message/);
  });
});

describe('circuit breaker streak', () => {
  const down = episodeFailureCause('policyReply: fetch failed');
  const lost = episodeFailureCause(served404('r--policy-v1'));

  it('trips at the threshold of failed groups with the same cause, not with mixed causes', () => {
    let s = closedBreaker();
    let r = foldFailedGroup(s, down, 3);
    expect(r).toMatchObject({ tripped: false, state: { streak: 1 } });
    r = foldFailedGroup(r.state, lost, 3); // another cause starts a new streak
    expect(r).toMatchObject({ tripped: false, state: { streak: 1, cause: lost } });
    r = foldFailedGroup(r.state, lost, 3);
    expect(r.tripped).toBe(false);
    r = foldFailedGroup(r.state, lost, 3);
    expect(r).toMatchObject({ tripped: true, state: { streak: 3, trips: 1 } });
    s = foldSealedGroupOk(r.state);
    expect(s).toMatchObject({ streak: 0, cause: null, trips: 1 });
  });

  it('half-open: after a probe, one more failed group with the same cause trips again', () => {
    const tripped = foldFailedGroup(foldFailedGroup(closedBreaker(), down, 2).state, down, 2);
    expect(tripped.tripped).toBe(true);
    const again = foldFailedGroup(halfOpen(tripped.state, 2), down, 2);
    expect(again).toMatchObject({ tripped: true, state: { trips: 2 } });
  });

  it('says the cause and how the pause ends', () => {
    expect(breakerPauseCause(down, 2, 30)).toMatch(/^2 group\(s\) in a row failed with policy-server-unreachable \(policyReply: fetch failed\); probing the policy server every 30 s, or send the resume signal$/);
    expect(breakerPauseCause(episodeFailureCause('openSandbox: bubblewrap'), 2, 30)).toMatch(/retrying after 30 s/);
  });
});

describe('mismatch alarm', () => {
  const cfg = { maxK3: 1e-3, steps: 3 };
  const fold = (ks: (number | null)[], c = cfg) => ks.reduce((acc, k) => foldMismatchStep(acc.state, k, c), { state: quietAlarm(), tripped: false });

  it('trips after K consecutive steps strictly above the threshold', () => {
    expect(fold([0.01, 0.01])).toMatchObject({ tripped: false, state: { streak: 2 } });
    expect(fold([0.01, 0.01, 0.01])).toMatchObject({ tripped: true, state: { streak: 3, trips: 1, last: 0.01 } });
    expect(fold([0.01, 0.01, 1e-3])).toMatchObject({ tripped: false, state: { streak: 0 } }); // at the threshold is healthy
  });

  it('a step without a lag-0 measurement neither extends nor ends the streak; NaN counts as over', () => {
    expect(fold([0.01, null, 0.01])).toMatchObject({ tripped: false, state: { streak: 2, last: 0.01 } });
    expect(fold([0.01, 0.01, Number.NaN]).tripped).toBe(true);
  });

  it('is off with K = 0, and the resume signal re-arms it', () => {
    expect(fold([1, 1, 1, 1], { maxK3: 1e-3, steps: 0 })).toMatchObject({ tripped: false, state: { streak: 0 } });
    const t = fold([0.01, 0.01, 0.01]).state;
    expect(foldMismatchStep(rearmed(t), 0.01, cfg)).toMatchObject({ tripped: false, state: { streak: 1, trips: 1 } });
  });
});

describe('train status state line', () => {
  it('reads Temporal\'s status, and the memo\'s pause while running', () => {
    const at = new Date('2026-12-03T19:00:00Z');
    expect(formatRunState({ status: 'RUNNING', memo: { trainingState: 'running' }, closeTime: undefined })).toBe('state: running');
    expect(formatRunState({ status: 'RUNNING', memo: { trainingState: 'paused', pauseReason: 'circuit-breaker', pauseCause: 'x' }, closeTime: undefined })).toBe('state: paused (circuit-breaker): x');
    expect(formatRunState({ status: 'TERMINATED', memo: { trainingState: 'running' }, closeTime: at })).toBe('state: terminated at 2026-12-03T19:00:00.000Z (by hand or by the server; the run stopped where it was)');
    expect(formatRunState({ status: 'FAILED', memo: undefined, closeTime: at })).toBe('state: failed at 2026-12-03T19:00:00.000Z');
    expect(formatRunState({ status: 'COMPLETED', memo: undefined, closeTime: at })).toBe('state: finished at 2026-12-03T19:00:00.000Z');
  });
});

describe('train CLI options of the guards', () => {
  it('map to the run input, which validates them', () => {
    const raw = trainingInputFrom({ steps: 2, attestEvery: 0, breakerGroups: 3, breakerProbeSeconds: 5, mismatchAlarmK3: '0.01', mismatchAlarmSteps: 0 });
    expect(TrainingRunInput.parse(raw)).toMatchObject({ attestEvery: 0, breakerGroups: 3, breakerProbeSeconds: 5, mismatchAlarmK3: 0.01, mismatchAlarmSteps: 0 });
    expect(TrainingRunInput.parse(trainingInputFrom({ steps: 2 }))).toMatchObject({ attestEvery: 5, breakerGroups: 2, breakerProbeSeconds: 30, mismatchAlarmK3: 1e-3, mismatchAlarmSteps: 3 });
    expect(TrainingRunInput.safeParse(trainingInputFrom({ steps: 2, mismatchAlarmK3: '-1' })).success).toBe(false);
  });
});
