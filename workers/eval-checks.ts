/**
 * What `debugrl eval` checks before it starts an EvaluationWorkflow, so that a configuration mistake stops with a
 * message instead of running every episode into the same wall (pass@1 0 % and exit 0, or "Activity task failed"):
 *   - every task asked for exists, and a split has tasks;
 *   - a scripted policy's file exists and every line parses (a folder: one `<task id>.jsonl` per chosen task);
 *   - the policy server answers `GET /models`, lists the model or `embedded:<adapter>`, and its reported maximum
 *     context (`max_model_len`, as vLLM and the embedded server report it) holds the episode's context limit.
 * The worker repeats what matters at run time; these checks only move the failure to where a person is looking.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { REPO_ROOT, type Config } from '../common/config';
import type { EvaluationConfig } from '../common/evaluation';
import { parsePolicySpec, type PolicySpec } from '../common/policy-spec';
import { readScript } from '../harness/script';
import { listTaskDirs, loadTask } from '../taskset/task-loader';

/** A mistake in what the user asked for; `debugrl eval` prints it and exits 2. */
export class ConfigError extends Error {}

/** The tasks an evaluation will run: the same choice as the `listTasks` activity (sorted by id, then the first N). */
export function chooseTasks(cfg: Pick<EvaluationConfig, 'split' | 'taskIds' | 'maxTasks'>, tasksDir: string): string[] {
  if (!fs.statSync(tasksDir, { throwIfNoEntry: false })?.isDirectory()) throw new ConfigError(`the tasks folder ${tasksDir} does not exist (DEBUGRL_TASKS_DIR)`);
  const all = listTaskDirs(tasksDir).map((d) => loadTask(d).spec);
  let chosen;
  if (cfg.taskIds) {
    const unknown = cfg.taskIds.filter((id) => !all.some((t) => t.id === id));
    if (unknown.length) throw new ConfigError(`unknown task${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')} in ${tasksDir}`);
    chosen = all.filter((t) => cfg.taskIds!.includes(t.id));
  } else {
    chosen = all.filter((t) => t.split === cfg.split);
    if (!chosen.length) throw new ConfigError(`no tasks in split "${cfg.split}" under ${tasksDir}`);
  }
  return chosen
    .map((t) => t.id)
    .sort((a, b) => a.localeCompare(b))
    .slice(0, cfg.maxTasks ?? undefined);
}

/** Check a scripted policy's file (or folder) and return the spec the worker can resolve. A relative path is read by
 * the worker from the repository root; one that exists only relative to the current folder is made absolute. */
export function checkScripted(spec: Extract<PolicySpec, { kind: 'scripted' }>, taskIds: string[], cwd = process.cwd()): string {
  const atRoot = path.isAbsolute(spec.path) ? spec.path : path.join(REPO_ROOT, spec.path);
  const atCwd = path.resolve(cwd, spec.path);
  const target = fs.existsSync(atRoot) ? atRoot : fs.existsSync(atCwd) ? atCwd : null;
  if (!target) throw new ConfigError(`scripted policy: no such file or folder ${spec.path}${path.isAbsolute(spec.path) ? '' : ` (looked in ${REPO_ROOT} and ${cwd})`}`);
  const files = fs.statSync(target).isDirectory() ? taskIds.map((id) => path.join(target, `${id}.jsonl`)) : [target];
  for (const f of files) {
    try {
      readScript(f);
    } catch (e) {
      throw new ConfigError(`scripted policy: ${(e as Error).message}`);
    }
  }
  return target === atRoot ? `scripted:${spec.path}` : `scripted:${target}`;
}

const ModelList = z.object({
  data: z.array(z.object({ id: z.string(), max_model_len: z.number().int().positive().optional() }).loose()),
});

/** `GET <base>/models`: the ids a server serves and the largest context it reports for each. */
export async function listServedModels(baseUrl: string, apiKey?: string, timeoutMs = 10_000): Promise<Map<string, number | null>> {
  const url = `${baseUrl.replace(/\/+$/, '')}/models`;
  let res: Response;
  try {
    res = await fetch(url, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new ConfigError(`the policy server at ${baseUrl} is not reachable (GET ${url}: ${cause?.code ?? cause?.message ?? (e as Error).message})`);
  }
  if (!res.ok) throw new ConfigError(`the policy server at ${baseUrl} answered GET ${url} with HTTP ${res.status}`);
  const parsed = ModelList.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new ConfigError(`the policy server at ${baseUrl} sent a model list that is not OpenAI's shape ({"data": [{"id": …}]})`);
  return new Map(parsed.data.data.map((m) => [m.id, m.max_model_len ?? null]));
}

export interface ServerCheck {
  /** The server's maximum context for this model, when it reports one. */
  maxContext: number | null;
}

/** Check that the server behind a chat policy answers and serves the model or adapter. */
export async function checkServer(spec: Extract<PolicySpec, { kind: 'embedded' | 'openai' }>, config: Config): Promise<ServerCheck> {
  const [baseUrl, model, hint] =
    spec.kind === 'embedded'
      ? [config.DEBUGRL_EMBEDDED_URL, spec.adapter ?? 'default', ' (start it with ./infra/embedded)']
      : [spec.baseUrl, spec.model, ''];
  let served;
  try {
    served = await listServedModels(baseUrl, spec.kind === 'openai' ? process.env.DEBUGRL_OPENAI_API_KEY : undefined);
  } catch (e) {
    throw new ConfigError(`${(e as Error).message}${hint}`);
  }
  if (!served.has(model)) {
    const what = spec.kind === 'embedded' ? `adapter "${model}" is not loaded on the embedded server` : `model "${model}" is not served`;
    throw new ConfigError(`${what} at ${baseUrl}; it serves: ${[...served.keys()].join(', ') || 'nothing'}${spec.kind === 'embedded' ? ' (load one with POST /v1/load_lora_adapter)' : ''}`);
  }
  return { maxContext: served.get(model) ?? null };
}

export interface PreflightOptions {
  config: Config;
  /** True when the user set the context limit; otherwise a server maximum below the default lowers it, with a note. */
  contextGiven: boolean;
}

export interface Preflight {
  taskIds: string[];
  /** Policy specs as the worker should get them (a scripted path may have been made absolute). */
  policy: string;
  compare?: string;
  /** The context limit to run with. */
  maxContextTokens: number;
  notes: string[];
}

export async function preflight(cfg: EvaluationConfig, opts: PreflightOptions): Promise<Preflight> {
  const taskIds = chooseTasks(cfg, opts.config.DEBUGRL_TASKS_DIR);
  const notes: string[] = [];
  let maxContextTokens = cfg.limits.maxContextTokens;
  const checkPolicy = async (specText: string): Promise<string> => {
    const spec = parsePolicySpec(specText);
    if (spec.kind === 'scripted') return checkScripted(spec, taskIds);
    if (spec.kind !== 'embedded' && spec.kind !== 'openai') return specText; // a policy with no file or server to check
    const { maxContext } = await checkServer(spec, opts.config);
    if (maxContext !== null && maxContext < maxContextTokens) {
      if (opts.contextGiven) {
        throw new ConfigError(`--max-context ${maxContextTokens} does not fit ${specText}: its server reports a maximum context of ${maxContext} tokens`);
      }
      notes.push(`context limit lowered from ${maxContextTokens} to ${maxContext} tokens, the maximum the server of ${specText} reports`);
      maxContextTokens = maxContext;
    }
    return specText;
  };
  const policy = await checkPolicy(cfg.policy);
  const compare = cfg.compare === undefined ? undefined : await checkPolicy(cfg.compare);
  return { taskIds, policy, ...(compare !== undefined ? { compare } : {}), maxContextTokens, notes };
}
