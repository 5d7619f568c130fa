/** Applies infra/migrations/NNN_name.sql in order, each in its own transaction, recording it in schema_migrations.
 * Running it again applies nothing. An advisory lock keeps two concurrent runs from racing. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { loadConfig, REPO_ROOT } from '../common/config';
import { pgConnectionString } from '../common/connections';

const MIGRATIONS_DIR = path.join(REPO_ROOT, 'infra', 'migrations');
const LOCK_ID = 7_233_092; // any constant shared by all runs of this script

export function listMigrations(dir = MIGRATIONS_DIR): { version: string; file: string }[] {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
  const seen = new Set<string>();
  return files.map((file) => {
    const m = /^(\d{3})_[a-z0-9_]+\.sql$/.exec(file);
    if (!m) throw new Error(`migration file name "${file}" must look like 001_short_name.sql`);
    if (seen.has(m[1])) throw new Error(`two migrations share the version ${m[1]}`);
    seen.add(m[1]);
    return { version: m[1], file: path.join(dir, file) };
  });
}

export async function migrate(databaseUrl: string): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [LOCK_ID]);
    await client.query(`create table if not exists schema_migrations (
      version text primary key, name text not null, applied_at timestamptz not null default now())`);
    const done = new Set((await client.query('select version from schema_migrations')).rows.map((r) => r.version as string));
    const applied: string[] = [];
    for (const m of listMigrations()) {
      if (done.has(m.version)) continue;
      await client.query('begin');
      try {
        await client.query(fs.readFileSync(m.file, 'utf8'));
        await client.query('insert into schema_migrations (version, name) values ($1, $2)', [m.version, path.basename(m.file)]);
        await client.query('commit');
      } catch (e) {
        await client.query('rollback');
        throw new Error(`migration ${path.basename(m.file)} failed: ${(e as Error).message}`);
      }
      applied.push(path.basename(m.file));
    }
    return applied;
  } finally {
    await client.end();
  }
}

if (require.main === module) {
  migrate(pgConnectionString(loadConfig())).then(
    (applied) => console.error(`[infra] postgres schema ok${applied.length ? ` (applied ${applied.join(', ')})` : ''}`),
    (err: unknown) => {
      console.error(`[infra] ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
