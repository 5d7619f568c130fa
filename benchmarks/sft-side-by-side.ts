/**
 * Base SmolLM2 against SmolLM2 after SFT, side by side (issue 12, "Measure on this machine, side by side"). Reads the
 * stored episodes of `eval --compare` runs from PostgreSQL and prints one markdown table: a column per (task set,
 * arm), a row per behaviour metric, every number from common/metrics.ts (the same functions as `debugrl report`).
 *
 *   npx tsc -p . && node lib/benchmarks/sft-side-by-side.js train=<evaluation id> validation=<evaluation id> [--json]
 *
 * Each argument is `<label>=<evaluation id>`; the label names the task set. Before printing, it checks that within
 * each evaluation every arm ran the same tasks with the same seeds, so the columns compare like with like, and exits 1
 * with the first difference otherwise.
 */
import { Pool } from 'pg';
import { loadEvaluation, loadEvaluationRecords } from '../activities/evaluation';
import { loadConfig } from '../common/config';
import { summarizeArm, type ArmSummary } from '../common/metrics';
import type { TrajectoryRecord } from '../common/trajectory';

interface Column {
  set: string;
  evaluationId: string;
  arm: string;
  policy: string;
  summary: ArmSummary;
}

const pct = (v: number | null) => (v === null ? 'n/a' : `${(100 * v).toFixed(1)}%`);
const num = (v: number | null, d = 2) => (v === null ? 'n/a' : v.toFixed(d));

const ROWS: [string, (s: ArmSummary) => string][] = [
  ['episodes (tasks × 1)', (s) => `${s.episodes} (${s.tasks})`],
  ['valid tool-call rate (valid replies / replies)', (s) => pct(s.validCallRate)],
  ['opened the debugger (episodes)', (s) => pct(s.debugger.shareOpened)],
  ['breakpoints hit (distinct, total / episodes with one)', (s) => `${s.debugger.breakpointsHit} / ${pct(s.debugger.shareBreakpointHit)}`],
  ['breakpoints never hit (total)', (s) => String(s.debugger.breakpointsNeverHit)],
  ['debugger command errors (total / per episode)', (s) => `${s.debugger.commandErrors} / ${num(s.episodes ? s.debugger.commandErrors / s.episodes : null)}`],
  ['debugger calls per episode', (s) => num(s.debugger.callsPerEpisode)],
  ['edits made (per episode / episodes with one)', (s) => `${num(s.edits.perEpisode)} / ${pct(s.edits.shareEdited)}`],
  ['pass@1', (s) => pct(s.passAt1)],
  ['median turns', (s) => num(s.turns.median, 1)],
  ['guard exits (repeats or 3 invalid replies)', (s) => String(s.failures.guard_exit)],
];

/** Every arm of one evaluation must hold the same (task, seed) pairs; returns the first difference, or null. */
export function seedMismatch(byArm: Map<string, TrajectoryRecord[]>): string | null {
  const keys = [...byArm.entries()].map(([arm, rs]) => [arm, rs.map((r) => `${r.taskId}#${r.seed}`).sort().join(',')] as const);
  for (const [arm, k] of keys.slice(1)) if (k !== keys[0]![1]) return `arm "${arm}" ran other (task, seed) pairs than arm "${keys[0]![0]}"`;
  return null;
}

export function markdownTable(cols: Column[]): string {
  const head = `| metric | ${cols.map((c) => `${c.set}: ${c.policy}`).join(' | ')} |`;
  const rule = `|---|${cols.map(() => '---').join('|')}|`;
  return [head, rule, ...ROWS.map(([name, f]) => `| ${name} | ${cols.map((c) => f(c.summary)).join(' | ')} |`)].join('\n');
}

async function main(args: string[]): Promise<number> {
  const json = args.includes('--json');
  const sets = args.filter((a) => a !== '--json').map((a) => /^([\w.-]+)=(\S+)$/.exec(a));
  if (!sets.length || sets.some((m) => !m)) {
    console.error('usage: node lib/benchmarks/sft-side-by-side.js <label>=<evaluation id>… [--json]');
    return 2;
  }
  const pool = new Pool({ connectionString: loadConfig().DEBUGRL_DATABASE_URL });
  try {
    const cols: Column[] = [];
    for (const [, set, evaluationId] of sets as RegExpExecArray[]) {
      const ev = await loadEvaluation(pool, evaluationId!);
      const records = await loadEvaluationRecords(pool, evaluationId!);
      const byArm = new Map(ev.arms.map((a) => [a.label, records.filter((r) => r.arm === a.label)]));
      const bad = seedMismatch(byArm);
      if (bad) {
        console.error(`${evaluationId}: ${bad}`);
        return 1;
      }
      for (const a of ev.arms) cols.push({ set: set!, evaluationId: evaluationId!, arm: a.label, policy: a.policy, summary: summarizeArm(byArm.get(a.label)!, 1) });
    }
    if (json) console.log(JSON.stringify(cols.map(({ summary, ...c }) => ({ ...c, summary: { ...summary, perTask: undefined } })), null, 2));
    else {
      console.log(markdownTable(cols));
      console.log(`\nevaluations: ${[...new Set(cols.map((c) => `${c.set}=${c.evaluationId}`))].join(', ')}; same tasks and seeds in every arm of each.`);
    }
    return 0;
  } finally {
    await pool.end();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: Error) => {
      console.error(`sft-side-by-side: ${e.message}`);
      process.exit(1);
    },
  );
}
