/** The policy turn's per-episode cache of the event log: a turn reads only the events since the last turn it saw,
 * instead of the whole episode every turn (benchmarks/episode-overhead.md).
 *
 * The cache is only an optimisation, kept per worker process. An entry holds an episode's events as of its last read
 * and the highest turn among them (`lastTurn`). The next read asks PostgreSQL, in one round trip, for
 *   - every event at turn ≥ lastTurn (that turn again: its tool or recovery events may have come after the read), and
 *   - the number of events below lastTurn,
 * and uses the entry only if that number is the number it holds below lastTurn; otherwise (events deleted, or written
 * below lastTurn by some path this file does not know) it is a miss, and a miss reads everything. The event log only
 * grows, in turn order, and every write is keyed (episode, turn, kind), so a turn that ran on another worker, a worker
 * restart (an empty cache) or a retried activity all read the same events as a full read would.
 *
 * Payloads come without an assistant reply's token ids and logprobs (the learner's data, never the conversation's), so
 * neither a read nor the cache carries them. Bounded: the least recently used episodes are dropped past `maxEpisodes`. */
import type { Pool } from 'pg';
import type { EventRow } from '../trajectory-store';

/** The payload fields a policy turn never reads: an assistant event's token ids and logprobs. */
const HEAVY = "payload - 'promptTokenIds' - 'tokenIds' - 'logprobs'";

export interface CachedRead {
  events: EventRow[];
  /** 'hit': only events at or after the last turn held were read; 'miss': the whole episode. */
  source: 'hit' | 'miss';
  /** Rows that came from PostgreSQL in this read. */
  rowsRead: number;
}

export class EpisodeEventCache {
  private readonly entries = new Map<string, { events: EventRow[]; lastTurn: number }>();
  readonly stats = { hits: 0, misses: 0, rowsRead: 0 };

  constructor(private readonly maxEpisodes = 512) {
    if (!Number.isInteger(maxEpisodes) || maxEpisodes < 1) throw new Error(`EpisodeEventCache: maxEpisodes must be a positive integer, got ${maxEpisodes}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The episode's events (turn, kind order), read incrementally when this process has read the episode before. */
  async read(pool: Pool, episodeId: string): Promise<CachedRead> {
    const held = this.entries.get(episodeId);
    let result: CachedRead | null = null;
    if (held) {
      const r = await pool.query(
        `select turn, kind, ${HEAVY} as payload, null::int as below from episode_events where episode_id = $1 and turn >= $2
         union all select null, null, null, count(*)::int from episode_events where episode_id = $1 and turn < $2
         order by turn, kind`,
        [episodeId, held.lastTurn],
      );
      const rows = r.rows as (EventRow & { below: number | null })[];
      const below = rows.find((x) => x.below !== null)!.below;
      const kept = held.events.filter((e) => e.turn < held.lastTurn);
      if (below === kept.length) {
        const fresh = rows.filter((x) => x.below === null).map(({ turn, kind, payload }) => ({ turn, kind, payload }));
        result = { events: [...kept, ...fresh], source: 'hit', rowsRead: fresh.length };
      }
    }
    if (!result) {
      const r = await pool.query(`select turn, kind, ${HEAVY} as payload from episode_events where episode_id = $1 order by turn, kind`, [episodeId]);
      result = { events: r.rows as EventRow[], source: 'miss', rowsRead: r.rows.length };
    }
    this.stats[result.source === 'hit' ? 'hits' : 'misses']++;
    this.stats.rowsRead += result.rowsRead;
    this.entries.delete(episodeId);
    if (result.events.length) this.entries.set(episodeId, { events: result.events, lastTurn: Math.max(...result.events.map((e) => e.turn)) });
    while (this.entries.size > this.maxEpisodes) this.entries.delete(this.entries.keys().next().value!);
    return result;
  }

  forget(episodeId: string): void {
    this.entries.delete(episodeId);
  }
}
