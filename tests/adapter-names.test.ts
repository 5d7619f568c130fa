/** Served adapter names (common/training.ts): a run's adapters are `<run>--policy-v<N>` on the shared inference server,
 * their version reads back from the name, and a publication retires only its own run's old versions, never another
 * run's adapter with the same version number (the collision the run scope exists to prevent). */
import { adaptersToRetire, policySpecFor, servedAdapterName, versionOfAdapter } from '../common/training';

describe('served adapter names', () => {
  it('scope the name by run, keep the bare policy-v<N> without a scope, and leave version 0 the base policy', () => {
    expect(servedAdapterName('main-20261202-063000-train', 2)).toBe('main-20261202-063000-train--policy-v2');
    expect(servedAdapterName(null, 2)).toBe('policy-v2');
    expect(policySpecFor('embedded', 3, 'run-a')).toBe('embedded:run-a--policy-v3');
    expect(policySpecFor('embedded', 3)).toBe('embedded:policy-v3');
    expect(policySpecFor('embedded', 0, 'run-a')).toBe('embedded');
  });

  it('read the version from a scoped or a bare name, and nothing from other names', () => {
    expect(versionOfAdapter('run.with.dots-1--policy-v12')).toBe(12);
    expect(versionOfAdapter('policy-v7')).toBe(7);
    for (const other of [null, 'sft-v1', 'policy-v', 'run--policy-v3x', 'my-policy-v3', 'run.policy-v3']) expect(versionOfAdapter(other)).toBeNull();
  });

  it('retire only the publishing run’s versions at or below version - keep', () => {
    const listed = ['smollm2-135m-instruct', 'policy-v1', 'a--policy-v1', 'a--policy-v2', 'a--policy-v3', 'b--policy-v1', 'sft-v1', 'x--a--policy-v1'];
    // run a publishes v3 keeping 2: v1 (<= 3 - 2) goes; v2 and v3 stay; b's v1, the bare v1 and x--a's v1 are not a's.
    expect(adaptersToRetire(listed, 'a--policy-v3', 3, 2)).toEqual(['a--policy-v1']);
    // a bare publication (a run from before the scoped names) retires bare names only
    expect(adaptersToRetire(listed, 'policy-v6', 6, 5)).toEqual(['policy-v1']);
    expect(adaptersToRetire(listed, 'b--policy-v1', 1, 1)).toEqual([]);
  });
});
