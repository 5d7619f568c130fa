/**
 * Token-chain breaks and stale-KV turns of stored episodes (issue 22; common/token-chain.ts), from PostgreSQL's event
 * log, so the numbers in benchmarks/offpolicy.md can be counted again after any evaluation:
 *
 *   npx tsc -p tsconfig.json && node lib/benchmarks/token-chains.js <evaluation id>...
 *
 * Per episode with more than one turn: its counts, and for each break where the prompt first leaves the previous
 * turn's prompt and completion (the position, the tokens expected and the tokens sent), which says what re-rendered.
 */
import { Pool } from 'pg';
import { loadConfig } from '../common/config';
import { pgConnectionString } from '../common/connections';
import { formatTokenChain, sumTokenChains, tokenChainOf, type ChainTurn } from '../common/token-chain';

/** Where `prompt` first differs from `prev ++ completion`, or null when it extends them. */
function firstDifference(prompt: number[], prev: number[], completion: number[]): number | null {
  const want = [...prev, ...completion];
  const i = want.findIndex((id, k) => prompt[k] !== id);
  return i < 0 ? null : i;
}

async function main(evaluationIds: string[]): Promise<void> {
  if (!evaluationIds.length) throw new Error('usage: node lib/benchmarks/token-chains.js <evaluation id>...');
  const pool = new Pool({ connectionString: pgConnectionString(loadConfig()) });
  try {
    const eps = (await pool.query('select episode_id from episodes where evaluation_id = any($1) order by episode_id', [evaluationIds])).rows as { episode_id: string }[];
    const counts = [];
    for (const { episode_id: id } of eps) {
      const q = await pool.query("select payload from episode_events where episode_id = $1 and kind = 'assistant' order by turn", [id]);
      const turns = q.rows.map((r) => r.payload as ChainTurn);
      const c = tokenChainOf(turns);
      counts.push(c);
      if (turns.length < 2) continue;
      console.log(`${id}: ${turns.length} turns; ${formatTokenChain(c)}`);
      turns.slice(1).forEach((t, k) => {
        const prev = turns[k]!;
        if (!t.promptTokenIds || !prev.promptTokenIds || !prev.tokenIds) return;
        const at = firstDifference(t.promptTokenIds, prev.promptTokenIds, prev.tokenIds);
        if (at === null) return;
        const want = [...prev.promptTokenIds, ...prev.tokenIds].slice(at, at + 6);
        console.log(`  turn ${k + 1} breaks at token ${at} (previous prompt ${prev.promptTokenIds.length}, completion ${prev.tokenIds.length}): expected ${JSON.stringify(want)}, sent ${JSON.stringify(t.promptTokenIds.slice(at, at + 6))}`);
      });
    }
    console.log(`${eps.length} episode(s) of ${evaluationIds.join(', ')}: ${formatTokenChain(sumTokenChains(counts))}`);
  } finally {
    await pool.end();
  }
}

main(process.argv.slice(2)).catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
