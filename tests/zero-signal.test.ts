/** Zero-signal groups (common/zero-signal.ts): where "equal" is decided, the dynamic-sampling decision and its guard. */
import { emptyZeroSignalCounts, foldSealedGroup, isZeroSignal, ZERO_SIGNAL_EPSILON, zeroSignalAction, zeroSignalWarning } from '../common/zero-signal';

describe('isZeroSignal', () => {
  it('calls a group of equal rewards zero-signal, float noise included', () => {
    expect(isZeroSignal([-1.78, -1.78, -1.78, -1.78])).toBe(true);
    // The same total reached by summing components in another order.
    expect(isZeroSignal([0.1 + 0.2, 0.3])).toBe(true);
    expect(isZeroSignal([1, 1 + ZERO_SIGNAL_EPSILON / 2])).toBe(true);
  });

  it('sees any real difference as signal', () => {
    expect(isZeroSignal([-1.78, -1.78, -1.77])).toBe(false);
    expect(isZeroSignal([1, 1 + 2 * ZERO_SIGNAL_EPSILON])).toBe(false);
    expect(isZeroSignal([0.5, -0.4])).toBe(false);
  });

  it('has no signal with fewer than two rewards, and refuses non-finite rewards', () => {
    expect(isZeroSignal([])).toBe(true);
    expect(isZeroSignal([0.7])).toBe(true);
    expect(() => isZeroSignal([1, Number.NaN])).toThrow(/not a finite number/);
  });
});

describe('zeroSignalAction and the guard', () => {
  it('drops zero-signal groups only when dynamic sampling is on and the streak is under the patience', () => {
    expect(zeroSignalAction({ zeroSignal: false, dropEnabled: true, streak: 0, patience: 3 })).toBe('queue');
    expect(zeroSignalAction({ zeroSignal: true, dropEnabled: false, streak: 1, patience: 3 })).toBe('queue');
    expect(zeroSignalAction({ zeroSignal: true, dropEnabled: true, streak: 2, patience: 3 })).toBe('drop');
    expect(zeroSignalAction({ zeroSignal: true, dropEnabled: true, streak: 3, patience: 3 })).toBe('queue');
  });

  it('counts a run: drops until the patience, trains past it, and a group with signal resets the streak', () => {
    let c = emptyZeroSignalCounts();
    const actions: string[] = [];
    const seal = (id: string, rewards: number[]) => {
      const r = foldSealedGroup(c, { groupId: id, rewards, dropEnabled: true, patience: 3 });
      c = r.counts;
      actions.push(r.action);
    };
    seal('g1', [-1, -1]);
    seal('g2', [-1, -1]);
    expect(zeroSignalWarning(c, 3, true)).toBeNull();
    seal('g3', [-1, -1]); // the third in a row reaches the patience: trained anyway
    expect(zeroSignalWarning(c, 3, true)).toMatch(/no reward signal in the last 3 groups/);
    expect(zeroSignalWarning(c, 3, false)).toBeNull();
    seal('g4', [1, -1]);
    seal('g5', [0, 0]);
    expect(actions).toEqual(['drop', 'drop', 'queue', 'queue', 'drop']);
    expect(c).toEqual({ groups: 5, zeroSignal: 4, dropped: 3, trained: 1, streak: 1, droppedSinceStep: 3, queuedIds: ['g3'] });
  });

  it('queues every group and counts the zero-signal ones when dynamic sampling is off', () => {
    const r = foldSealedGroup(emptyZeroSignalCounts(), { groupId: 'g1', rewards: [2, 2, 2], dropEnabled: false, patience: 1 });
    expect(r).toMatchObject({ action: 'queue', zeroSignal: true, counts: { zeroSignal: 1, dropped: 0, trained: 1, queuedIds: ['g1'] } });
  });
});
