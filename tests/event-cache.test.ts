/** The policy turn's event cache (activities/policies/event-cache.ts) on the real PostgreSQL: a turn after the first
 * reads only the events since the last turn it saw, and every read gives what a full read gives (the conversation the
 * policy sees is the same), also for a cache that missed turns run on another worker, after rows vanish, and past its
 * bound. */
import { EpisodeEventCache } from '../activities/policies/event-cache';
import { makePool } from '../activities/pg';
import { appendEvent, buildConversation, loadEvents, type EventRow } from '../activities/trajectory-store';
import { loadConfig } from '../common/config';

const config = loadConfig();
const pool = makePool(config.DEBUGRL_DATABASE_URL, { max: 2 });
const episode = `event-cache-test-${process.pid}-${Date.now().toString(36)}`;
const other = `${episode}-b`;

const start = { taskId: 't', split: 'train', policy: 'scripted:x', toolset: 'full', limits: {}, seed: 0, evaluationId: null, arm: null, messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'fix it' }], startedAt: 'T' };
const assistant = (turn: number) => ({
  message: { role: 'assistant', content: null, tool_calls: [{ id: `call_${turn}`, type: 'function', function: { name: 'bash', arguments: `{"command":"echo ${turn}"}` } }] },
  toolCall: { name: 'bash', arguments: { command: `echo ${turn}` } }, invalidReason: null, promptTokens: 10 * turn, completionTokens: 5, tokenCounting: 'server-usage', policyVersion: 0,
  promptTokenIds: [1, 2, 3], tokenIds: [4, 5], logprobs: [-0.1, -0.2], latencyMs: 1,
});
const tool = (turn: number) => ({ tool: 'bash', ok: true, output: `${turn}\n`, stateChanging: false, debugger: false, meta: {}, latencyMs: 1 });

async function turn(id: string, n: number): Promise<void> {
  await appendEvent(pool, id, n, 'assistant', assistant(n));
  await appendEvent(pool, id, n, 'tool', tool(n));
}
/** A full read, without the fields the cache leaves out. */
async function full(id: string): Promise<EventRow[]> {
  const heavy = new Set(['promptTokenIds', 'tokenIds', 'logprobs']);
  return (await loadEvents(pool, id)).map((e) => ({ ...e, payload: Object.fromEntries(Object.entries(e.payload as object).filter(([k]) => !heavy.has(k))) }));
}

afterAll(async () => {
  await pool.query('delete from episode_events where episode_id = any($1)', [[episode, other]]);
  await pool.end();
});

describe('EpisodeEventCache', () => {
  it('reads everything once, then only the last turn held and what came after, with the same result as a full read', async () => {
    const cache = new EpisodeEventCache();
    await appendEvent(pool, episode, 0, 'start', start);
    let r = await cache.read(pool, episode);
    expect(r).toMatchObject({ source: 'miss', rowsRead: 1 });
    for (let n = 1; n <= 6; n++) {
      await turn(episode, n);
      r = await cache.read(pool, episode);
      // The turn before (held, read again: its events may have grown) and this turn: 4 rows, however long the episode.
      expect(r).toMatchObject({ source: 'hit', rowsRead: n === 1 ? 3 : 4 });
      expect(r.events).toEqual(await full(episode));
    }
    expect(buildConversation(r.events)).toEqual(buildConversation(await loadEvents(pool, episode)));
    expect(cache.stats).toMatchObject({ hits: 6, misses: 1 });
    // Token ids and logprobs are the learner's data: neither read nor held.
    expect(r.events.find((e) => e.kind === 'assistant')!.payload).not.toHaveProperty('logprobs');
  });

  it('catches up after turns that ran on another worker, and after a recovery event in the turn it holds', async () => {
    const here = new EpisodeEventCache();
    await appendEvent(pool, other, 0, 'start', start);
    await turn(other, 1);
    await here.read(pool, other);
    // Turns 2..4 ran elsewhere; a recovery was logged before turn 1's tool call was re-run (same turn as held).
    await appendEvent(pool, other, 1, 'recovery-1', { reason: 'sandbox lost' });
    for (let n = 2; n <= 4; n++) await turn(other, n);
    const r = await here.read(pool, other);
    expect(r.source).toBe('hit');
    expect(r.events).toEqual(await full(other));
  });

  it('misses, and reads everything, when rows below its last turn changed; and forgets the least recently used', async () => {
    const cache = new EpisodeEventCache(1);
    await cache.read(pool, other);
    await pool.query("delete from episode_events where episode_id = $1 and turn = 2 and kind = 'tool'", [other]);
    let r = await cache.read(pool, other);
    expect(r.source).toBe('miss');
    expect(r.events).toEqual(await full(other));
    await cache.read(pool, episode); // the bound is 1 episode: `other` is dropped
    expect(cache.size).toBe(1);
    r = await cache.read(pool, other);
    expect(r.source).toBe('miss');
    expect(() => new EpisodeEventCache(0)).toThrow(/positive integer/);
  });
});
