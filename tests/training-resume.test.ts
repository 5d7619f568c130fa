/** `train --resume <run>`: the run's registration (beginTrainingRun, on real PostgreSQL and Kafka) hands a resumed run
 * the curriculum its sealed groups built, not a fresh one: every group folded in again in the order it was sealed, so
 * task estimates, unsolved streaks and the 30–70 % share carry over; its untrained groups stay queued. */
import { createTrainingActivities } from '../activities/training-coordinator';
import { curriculumSummary, initialCurriculum } from '../common/curriculum';
import { TrainingRunInput, type GroupEpisode } from '../common/training';
import { openDeps, type OpenDeps } from '../workers/deps';
import { fixtureConfig } from './helpers/episodes';

const runId = `train-resume-test-${process.pid}-${Date.now().toString(36)}`;
const TASKS = ['nested_copy_alias', 'shared_default_tags']; // both debugger-recommended fixtures
const ep = (id: string, passed: boolean, usedDebugger: boolean): GroupEpisode => ({ episodeId: `${runId}.${id}`, reward: passed ? 1 : -1, components: {}, passed, usedDebugger, minPolicyVersion: 0 });

describe('resuming a training run carries its curriculum (real PostgreSQL and Kafka)', () => {
  let deps: OpenDeps;
  let acts: ReturnType<typeof createTrainingActivities>;
  const cfg = TrainingRunInput.parse({ runId, taskIds: TASKS, steps: 3, groupSize: 2, groupsPerStep: 1 });
  const begin = () => acts.beginTrainingRun({ runId, workflowId: runId, input: cfg });
  beforeAll(() => {
    deps = openDeps(fixtureConfig, 'train-resume-test');
    acts = createTrainingActivities({ ...deps, config: fixtureConfig });
  });
  afterAll(async () => {
    for (const t of ['training_groups', 'training_offsets', 'training_runs']) await deps.pool.query(`delete from ${t} where run_id = $1`, [runId]);
    await deps.close();
  });

  it('starts a new run on the initial curriculum, and a resumed one on its sealed groups', async () => {
    const fresh = await begin();
    expect(fresh.curriculum).toEqual(initialCurriculum(fresh.tasks));
    expect(fresh.groupSeq).toBe(0);

    // Sealed in this order: shared_default_tags fails twice (the debugger opened once), then nested_copy_alias
    // passes once and fails once.
    const groups: [string, string, GroupEpisode[]][] = [
      ['g1', 'shared_default_tags', [ep('g1.e0', false, true), ep('g1.e1', false, false)]],
      ['g2', 'shared_default_tags', [ep('g2.e0', false, false), ep('g2.e1', false, false)]],
      ['g3', 'nested_copy_alias', [ep('g3.e0', true, true), ep('g3.e1', false, true)]],
    ];
    for (const [g, taskId, episodes] of groups) {
      await acts.sealGroup({ runId, groupId: `${runId}.${g}`, taskId, episodes, sealedReason: 'full', infraFailures: 0 });
      await new Promise((r) => setTimeout(r, 20)); // distinct sealed_at
    }

    const resumed = await begin();
    expect(resumed.groupSeq).toBe(3);
    expect(resumed.queued).toEqual(groups.map(([g]) => `${runId}.${g}`));
    const c = resumed.curriculum;
    expect(c.groups).toBe(3);
    const [nested, shared] = c.tasks; // sorted by id
    // Evidence decays by 0.98 per finished group (of any task): shared fails 2 after g1, 2 * 0.98 + 2 = 3.96 after
    // g2, 3.96 * 0.98 = 3.8808 after g3; nested has only g3: 1 success, 1 failure.
    expect(shared).toMatchObject({ id: 'shared_default_tags', groups: 2, episodes: 4, unsolvedStreak: 2, successes: 0 });
    expect(shared.failures).toBeCloseTo(3.8808, 10);
    expect(nested).toMatchObject({ id: 'nested_copy_alias', groups: 1, episodes: 2, unsolvedStreak: 0, successes: 1, failures: 1 });
    // Recent counts behind advancement (decay 0.9 per group): episodes 2 -> 3.8 -> 5.42; debugger opened on a
    // recommended task 1 -> 0.9 -> 2.81.
    expect(c.recent.episodes).toBeCloseTo(5.42, 10);
    expect(c.recent.debuggerOpenedOnRecommended).toBeCloseTo(2.81, 10);
    // The 30-70 % share: every group's task was at 50 % (in the band) when it finished, except g2's (shared at
    // 1 / 4 after g1's two failures under Beta(1, 1)): 4 of 6 rollouts.
    expect(curriculumSummary(c).share30to70).toBeCloseTo(4 / 6, 10);
  });

  it('stores a group dropped for zero signal off Kafka: counted and in the curriculum, never queued', async () => {
    const g4 = `${runId}.g4`;
    const sent = await acts.sealGroup({ runId, groupId: g4, taskId: 'nested_copy_alias', episodes: [ep('g4.e0', false, false), ep('g4.e1', false, false)], sealedReason: 'full', infraFailures: 0, dropped: 'zero-signal' });
    expect(sent).toEqual({ dropped: 'zero-signal' });
    const row = (await deps.pool.query('select rejected_reason, kafka_offset, consumed_step from training_groups where group_id = $1', [g4])).rows[0];
    expect(row).toEqual({ rejected_reason: 'zero-signal', kafka_offset: null, consumed_step: null });
    const resumed = await begin();
    expect(resumed.groupSeq).toBe(4); // its number is taken: a resumed run opens g5 next
    expect(resumed.queued).not.toContain(g4);
    expect(resumed.queued).toHaveLength(3);
    expect(resumed.curriculum.groups).toBe(4);
  });
});
