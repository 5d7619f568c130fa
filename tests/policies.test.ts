/** EpisodeWorkflow with the model-backed policies on the real embedded CPU server (SmolLM2-135M-Instruct, started by
 * infra/embedded): `embedded` (constrained tool calls, token ids and logprobs) and `openai` pointed at the same
 * OpenAI-compatible endpoint. The scripted policy is covered by tests/episode.test.ts. */
import { TrajectoryRecord } from '../common/trajectory';
import { EpisodeWorkflow } from '../workflows/episode';
import { fixtureConfig, inProcessWorkers, type InProcessWorkers } from './helpers/episodes';
import { quietRuntime, temporalClient } from './helpers/services';

const TASK = 'shared_default_tags';
const LIMITS = { maxTurns: 3, maxContextTokens: 8192, maxNewTokens: 160 };

describe('EpisodeWorkflow with the embedded and openai policies (real SmolLM2 server)', () => {
  let w: InProcessWorkers;
  beforeAll(async () => {
    quietRuntime();
    const health = await fetch(`${new URL(fixtureConfig.DEBUGRL_EMBEDDED_URL).origin}/health`).catch((e: Error) => e);
    if (health instanceof Error || !health.ok) throw new Error(`the embedded policy server is not up at ${fixtureConfig.DEBUGRL_EMBEDDED_URL}: start it with infra/embedded`);
    w = await inProcessWorkers('policy-test');
  });
  afterAll(async () => w?.close());

  async function episode(policy: string) {
    const { client, connection } = await temporalClient();
    try {
      const result = await w.run(
        client.workflow.execute(EpisodeWorkflow, { taskQueue: w.taskQueue, workflowId: `policy-test-${Date.now()}`, args: [{ taskId: TASK, policy, limits: LIMITS, seed: 3 }] }),
      );
      const row = await w.deps.pool.query('select record from episodes where episode_id = $1', [result.episodeId]);
      return { result, record: TrajectoryRecord.parse(row.rows[0].record) };
    } finally {
      await connection.close();
    }
  }

  it('embedded: every turn is a valid tool call with token ids and logprobs for RL', async () => {
    const { result, record } = await episode('embedded');
    expect(['done', 'turn_cap', 'guard', 'context_exhausted']).toContain(result.exitReason);
    expect(record.turns.length).toBeGreaterThan(0);
    for (const t of record.turns) {
      // tool_choice "required" constrains decoding: every reply calls one known tool…
      const m = t.assistant.message;
      expect(m.role === 'assistant' ? m.tool_calls?.length : 0).toBe(1);
      // …but the grammar does not carry every refinement of the tools' schemas (a run_tests target's pattern was seen
      // violated), and a call whose arguments fail them is an invalid reply, counted by the "no valid call" guard.
      if (t.assistant.invalidReason !== null) expect(t.assistant.invalidReason).toMatch(/^invalid arguments for /);
      else expect(t.assistant.toolCall).not.toBeNull();
      expect(t.assistant.tokenCounting).toBe('server-usage');
      expect(t.assistant.tokenIds!.length).toBe(t.assistant.completionTokens);
      expect(t.assistant.logprobs!.length).toBe(t.assistant.completionTokens);
      expect(t.assistant.logprobs!.every((l) => l <= 0)).toBe(true);
      expect(t.assistant.promptTokenIds!.length).toBe(t.assistant.promptTokens);
    }
    expect(Object.keys(record.outcome.tests).length).toBeGreaterThan(0); // graded whatever happened
  }, 600_000);

  it('openai: an OpenAI-compatible server with tool_choice "auto"; replies without a valid call become observations', async () => {
    const { result, record } = await episode(`openai:default@${fixtureConfig.DEBUGRL_EMBEDDED_URL}`);
    expect(['done', 'turn_cap', 'guard', 'context_exhausted']).toContain(result.exitReason);
    for (const t of record.turns) {
      if (t.assistant.toolCall === null) {
        expect(t.assistant.invalidReason).toBeTruthy();
        expect(t.tool?.invalidReply).toBe(true);
        expect(t.tool?.output).toMatch(/^error: /);
      }
    }
  }, 600_000);

  it('an unknown adapter ends the episode as a recorded harness error, not a crash', async () => {
    const { result, record } = await episode('embedded:no-such-adapter');
    expect(result.exitReason).toBe('error');
    expect(result.error).toMatch(/HTTP 404/);
    expect(record.outcome.error).toMatch(/no-such-adapter|HTTP 404/);
  }, 300_000);
});
