import * as path from 'node:path';
import { z } from 'zod';

/** The repository root: compiled code runs from lib/<dir>/, sources from <dir>/. */
export const REPO_ROOT = path.resolve(__dirname, __dirname.includes(`${path.sep}lib${path.sep}`) ? '../..' : '..');

const hostPort = z.string().regex(/^[\w.-]+:\d{1,5}$/, 'must look like host:port');

/** Every setting comes from one environment variable with a default that works on a developer machine after
 * `infra/up`. A bad value fails at start-up and names the variable. */
const ConfigSchema = z.object({
  DEBUGRL_TEMPORAL_ADDRESS: hostPort.default('127.0.0.1:7233'),
  DEBUGRL_TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
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
  DEBUGRL_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .default('postgres://debugrl:debugrl@127.0.0.1:5433/debugrl'),
  DEBUGRL_DATA_DIR: z.string().default(path.join(REPO_ROOT, '.data')),
  DEBUGRL_TASKS_DIR: z.string().default(path.join(REPO_ROOT, 'tasks')),
  /** The project venv's interpreter: it has pytest, the native package and the learner's dependencies. */
  DEBUGRL_PYTHON: z.string().default(path.join(REPO_ROOT, '.venv', 'bin', 'python')),
  /** Base URL of the embedded CPU inference server (OpenAI-compatible). */
  DEBUGRL_EMBEDDED_URL: z.string().url().default('http://127.0.0.1:8765/v1'),
});
export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {}

/** The infra scripts take a second stack's ports one by one (DEBUGRL_KAFKA_PORT, DEBUGRL_PG_PORT, DEBUGRL_EMBEDDED_PORT,
 * see infra/lib.sh); the addresses default to the same ports here, so a process started by hand finds that stack too. */
function portDefaults(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  if (env.DEBUGRL_KAFKA_PORT) out.DEBUGRL_KAFKA_BROKERS = `127.0.0.1:${env.DEBUGRL_KAFKA_PORT}`;
  if (env.DEBUGRL_PG_PORT) out.DEBUGRL_DATABASE_URL = `postgres://debugrl:debugrl@127.0.0.1:${env.DEBUGRL_PG_PORT}/debugrl`;
  if (env.DEBUGRL_EMBEDDED_PORT) out.DEBUGRL_EMBEDDED_URL = `http://127.0.0.1:${env.DEBUGRL_EMBEDDED_PORT}/v1`;
  return out;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const merged: NodeJS.ProcessEnv = { ...portDefaults(env), ...env };
  const parsed = ConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(merged[String(i.path[0])])})`);
    throw new ConfigError(`invalid debugrl configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
