import * as path from 'node:path';
import { z } from 'zod';

/** The repository root: compiled code runs from lib/<dir>/, sources from <dir>/. */
export const REPO_ROOT = path.resolve(__dirname, __dirname.includes(`${path.sep}lib${path.sep}`) ? '../..' : '..');

const hostPort = z.string().regex(/^[\w.-]+:\d{1,5}$/, 'must look like host:port');

/** An on/off variable: true/false, 1/0, yes/no, on/off. */
const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], 'must be true or false')
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

/** node-postgres's sslmode values: libpq's, and its own no-verify (TLS without any certificate check). */
const SSL_MODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'];

/** A query parameter of a postgres:// URL, or null. */
export function sslParam(url: string, name: string): string | null {
  try {
    return new URL(url).searchParams.get(name);
  } catch {
    return null;
  }
}

/** Every setting comes from one environment variable with a default that works on a developer machine after
 * `infra/up`. A bad value fails at start-up and names the variable. */
const ConfigSchema = z.object({
  DEBUGRL_TEMPORAL_ADDRESS: hostPort.default('127.0.0.1:7233'),
  DEBUGRL_TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  /** TLS to Temporal: on by itself when any TLS file or an API key is set; `true` alone verifies the server with the
   * system CAs (a cluster behind a public certificate). */
  DEBUGRL_TEMPORAL_TLS: flag.optional(),
  /** mTLS (a self-hosted cluster, or a Temporal Cloud namespace with certificate auth): PEM client certificate and key. */
  DEBUGRL_TEMPORAL_TLS_CERT: z.string().min(1).optional(),
  DEBUGRL_TEMPORAL_TLS_KEY: z.string().min(1).optional(),
  /** PEM CA that signed the server's certificate, when it is not a public one. */
  DEBUGRL_TEMPORAL_TLS_CA: z.string().min(1).optional(),
  /** The name the server's certificate is checked against, when it differs from the address's host. */
  DEBUGRL_TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
  /** Temporal Cloud API key (sent as a bearer token; implies TLS). */
  DEBUGRL_TEMPORAL_API_KEY: z.string().min(1).optional(),
  /** Shared queue for workflows and for activities that may run on any worker. */
  DEBUGRL_TASK_QUEUE: z.string().min(1).default('debugrl'),
  /** Queue of the GPU activity worker that drives the learner. */
  DEBUGRL_LEARNER_TASK_QUEUE: z.string().min(1).default('gpu'),
  /** Learner processes: 1 runs the service alone (CPU or one GPU); N > 1 runs it under torchrun with FSDP over N GPUs. */
  DEBUGRL_LEARNER_NPROC: z.coerce.number().int().min(1).max(64).default(1),
  /** The inference server that training publishes adapters to (POST /v1/load_lora_adapter): the embedded server by
   * default, or a vLLM server started with --enable-lora and VLLM_ALLOW_RUNTIME_LORA_UPDATING=True. */
  DEBUGRL_PUBLISH_URL: z.string().url().optional(),
  DEBUGRL_KAFKA_BROKERS: z
    .string()
    .default('127.0.0.1:9092')
    .transform((s) => s.split(',').map((b) => b.trim()))
    .pipe(z.array(hostPort).min(1)),
  /** TLS to the brokers (SSL or SASL_SSL listeners); on by itself when a CA is set. */
  DEBUGRL_KAFKA_SSL: flag.optional(),
  /** PEM CA that signed the brokers' certificates, when it is not a public one. */
  DEBUGRL_KAFKA_SSL_CA: z.string().min(1).optional(),
  DEBUGRL_KAFKA_SASL_MECHANISM: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional(),
  DEBUGRL_KAFKA_SASL_USERNAME: z.string().min(1).optional(),
  DEBUGRL_KAFKA_SASL_PASSWORD: z.string().min(1).optional(),
  /** Partitions of the multi-partition topics that infra/topics.ts creates (rollouts, training-groups); unset: the
   * counts in infra/topics.json. A topic with one partition there keeps one (its readers rely on total order). */
  DEBUGRL_KAFKA_PARTITIONS: z.coerce.number().int().min(1).max(64).optional(),
  /** Replicas of each created topic: 1 on one broker; 3 on a cluster, so a broker's loss loses no record. */
  DEBUGRL_KAFKA_REPLICATION_FACTOR: z.coerce.number().int().min(1).max(16).default(1),
  DEBUGRL_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .default('postgres://debugrl:debugrl@127.0.0.1:5433/debugrl')
    .superRefine((url, ctx) => {
      const mode = sslParam(url, 'sslmode');
      if (mode !== null && !SSL_MODES.includes(mode)) ctx.addIssue({ code: 'custom', message: `sslmode must be one of ${SSL_MODES.join(', ')}` });
    }),
  /** PEM CA for the PostgreSQL server's certificate; added to the URL as sslrootcert (default sslmode verify-full). */
  DEBUGRL_DATABASE_SSL_CA: z.string().min(1).optional(),
  DEBUGRL_DATA_DIR: z.string().default(path.join(REPO_ROOT, '.data')),
  DEBUGRL_TASKS_DIR: z.string().default(path.join(REPO_ROOT, 'tasks')),
  /** The project venv's interpreter: it has pytest, the native package and the learner's dependencies. */
  DEBUGRL_PYTHON: z.string().default(path.join(REPO_ROOT, '.venv', 'bin', 'python')),
  /** Base URL of the embedded CPU inference server (OpenAI-compatible). */
  DEBUGRL_EMBEDDED_URL: z.string().url().default('http://127.0.0.1:8765/v1'),
}).superRefine(crossChecks);
export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {}

/** Settings that only make sense together. The files themselves are read (and their absence reported, naming the
 * variable) where connections are made: common/connections.ts. */
function crossChecks(c: z.infer<typeof ConfigSchema>, ctx: z.RefinementCtx): void {
  const issue = (variable: string, message: string) => ctx.addIssue({ code: 'custom', path: [variable], message });
  if (c.DEBUGRL_TEMPORAL_TLS_CERT && !c.DEBUGRL_TEMPORAL_TLS_KEY) issue('DEBUGRL_TEMPORAL_TLS_CERT', 'a client certificate needs its key in DEBUGRL_TEMPORAL_TLS_KEY');
  if (c.DEBUGRL_TEMPORAL_TLS_KEY && !c.DEBUGRL_TEMPORAL_TLS_CERT) issue('DEBUGRL_TEMPORAL_TLS_KEY', 'a client key needs its certificate in DEBUGRL_TEMPORAL_TLS_CERT');
  if (c.DEBUGRL_TEMPORAL_TLS === false) {
    for (const v of ['DEBUGRL_TEMPORAL_TLS_CERT', 'DEBUGRL_TEMPORAL_TLS_CA', 'DEBUGRL_TEMPORAL_TLS_SERVER_NAME'] as const) {
      if (c[v]) issue(v, 'is set but DEBUGRL_TEMPORAL_TLS is false');
    }
    if (c.DEBUGRL_TEMPORAL_API_KEY) issue('DEBUGRL_TEMPORAL_API_KEY', 'an API key is only sent over TLS, but DEBUGRL_TEMPORAL_TLS is false');
  }
  if (c.DEBUGRL_KAFKA_SSL === false && c.DEBUGRL_KAFKA_SSL_CA) issue('DEBUGRL_KAFKA_SSL_CA', 'is set but DEBUGRL_KAFKA_SSL is false');
  const sasl = c.DEBUGRL_KAFKA_SASL_MECHANISM;
  for (const v of ['DEBUGRL_KAFKA_SASL_USERNAME', 'DEBUGRL_KAFKA_SASL_PASSWORD'] as const) {
    if (sasl && !c[v]) issue(v, `is required with DEBUGRL_KAFKA_SASL_MECHANISM=${sasl}`);
    if (!sasl && c[v]) issue(v, 'is set but DEBUGRL_KAFKA_SASL_MECHANISM is not');
  }
  if (c.DEBUGRL_DATABASE_SSL_CA) {
    const mode = sslParam(c.DEBUGRL_DATABASE_URL, 'sslmode');
    if (mode === 'disable' || mode === 'no-verify') issue('DEBUGRL_DATABASE_SSL_CA', `is set but DEBUGRL_DATABASE_URL has sslmode=${mode}, which checks no certificate`);
    if (sslParam(c.DEBUGRL_DATABASE_URL, 'sslrootcert') !== null) issue('DEBUGRL_DATABASE_SSL_CA', 'is set but DEBUGRL_DATABASE_URL already names sslrootcert; give the CA once');
  }
}

/** Values never echoed in an error: keys, passwords, and the password inside a URL. */
function shown(variable: string, value: string | undefined): string {
  if (value === undefined) return 'nothing';
  if (/_(API_KEY|PASSWORD)$/.test(variable)) return '***';
  return JSON.stringify(value.replace(/(\/\/[^:/@]*:)[^@/]*@/, '$1***@'));
}

/** The infra scripts take a second stack's ports one by one (DEBUGRL_KAFKA_PORT, DEBUGRL_PG_PORT, DEBUGRL_EMBEDDED_PORT,
 * see infra/lib.sh); the addresses default to the same ports here, so a process started by hand finds that stack too. */
function portDefaults(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  if (env.DEBUGRL_KAFKA_PORT) out.DEBUGRL_KAFKA_BROKERS = `127.0.0.1:${env.DEBUGRL_KAFKA_PORT}`;
  if (env.DEBUGRL_PG_PORT) out.DEBUGRL_DATABASE_URL = `postgres://debugrl:debugrl@127.0.0.1:${env.DEBUGRL_PG_PORT}/debugrl`;
  if (env.DEBUGRL_EMBEDDED_PORT) out.DEBUGRL_EMBEDDED_URL = `http://127.0.0.1:${env.DEBUGRL_EMBEDDED_PORT}/v1`;
  return out;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A port variable and an address variable that name two different ports on this machine: which one was meant cannot
 * be told, so neither wins. (infra/lib.sh exports the addresses; a test that set only DEBUGRL_EMBEDDED_PORT for its own
 * server once sent every episode to the shared one under ./infra/test, and timed out in CI.) An address on another
 * host is a deliberate choice and wins, as before. */
function portConflicts(env: NodeJS.ProcessEnv): string[] {
  const pairs = [
    ['DEBUGRL_EMBEDDED_PORT', 'DEBUGRL_EMBEDDED_URL'],
    ['DEBUGRL_PG_PORT', 'DEBUGRL_DATABASE_URL'],
  ] as const;
  return pairs.flatMap(([portVar, urlVar]) => {
    const port = env[portVar];
    const address = env[urlVar];
    if (!port || !address) return [];
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      return []; // the schema reports a malformed address
    }
    return LOOPBACK.has(url.hostname) && url.port !== port ? [`  ${portVar}: ${port} names another port than ${urlVar} (${shown(urlVar, address)}); set one of them, or both to the same port`] : [];
  });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const merged: NodeJS.ProcessEnv = { ...portDefaults(env), ...env };
  const conflicts = portConflicts(env);
  const parsed = ConfigSchema.safeParse(merged);
  if (!parsed.success || conflicts.length) {
    const lines = (parsed.success ? [] : parsed.error.issues).map((i) => `  ${i.path.join('.')}: ${i.message} (got ${shown(String(i.path[0]), merged[String(i.path[0])])})`);
    throw new ConfigError(`invalid debugrl configuration:\n${[...lines, ...conflicts].join('\n')}`);
  }
  return parsed.data;
}
