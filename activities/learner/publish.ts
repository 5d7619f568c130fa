/**
 * Publishing an adapter to the inference server, with proof of what it serves: ONE path for a GRPO version
 * (`publishAdapter`) and an SFT result (`publishSftAdapter`, sft-epoch.ts), against DEBUGRL_PUBLISH_URL (vLLM, or
 * any server with its LoRA API) or else the embedded server.
 *
 *   POST /v1/load_lora_adapter {lora_name, lora_path}  (vLLM's API; the embedded server speaks it)
 *   GET  /v1/models                                    must list it
 *   canary: a fixed prompt to it; the server must say it used the adapter's version (when it says one), and its
 *           logprobs of the tokens it sampled must match a learner's scoring of the same tokens, with the same
 *           weights, within CANARY_TOLERANCE
 *   unload  what the caller retires (a run's versions older than it may still be sampling from)
 *
 * Loading a name again replaces its weights (the server's load_lora_adapter), so a retried publication is harmless;
 * the canary checks the weights that are served now. It catches an adapter that was never delivered (verl #7495: for
 * two months it looked like staleness).
 */
import { z } from 'zod';
import { parseInput } from '../../common/boundary';
import type { Config } from '../../common/config';
import { Failure, failure } from '../../common/failures';
import { adapterName, adaptersToRetire, servedPolicyVersion, versionOfAdapter, type PublishResult } from '../../common/training';
import { withHeartbeat } from '../heartbeat';
import type { LearnerHost } from './host';
import type { LearnerProcess } from './process';

/** Max |server logprob - learner logprob| per canary token. Both run the same float32 weights; they differ only in
 * kernel order (incremental KV-cached decoding against one full forward), which moves logprobs by ~1e-5 on SmolLM2.
 * 2e-3 leaves room for that and for bf16 servers' rounding, and is far below a missing update's gap after training. */
export const CANARY_TOLERANCE = 2e-3;
const CANARY_MESSAGES = [
  { role: 'system', content: 'You are a careful Python debugging assistant.' },
  { role: 'user', content: 'The test test_total fails with AssertionError: 9 != 10. What do you check first?' },
];

export const PublishInput = z
  .object({
    runId: z.string().min(1),
    /** 0 only for a run's init adapter (activities/rl-init.ts), which is its first version. */
    version: z.number().int().min(0),
    adapterPath: z.string().min(1),
    keep: z.number().int().min(1),
    /** The served name; absent in runs started before the run-scoped names: the bare `policy-v<N>`. */
    name: z.string().regex(/^[\w.-]{1,200}$/).optional(),
    tolerance: z.number().positive().default(CANARY_TOLERANCE),
  })
  .strict();
export type PublishInput = z.input<typeof PublishInput>;

/** The server adapters are published to. */
export const publishUrl = (config: Config) => config.DEBUGRL_PUBLISH_URL ?? config.DEBUGRL_EMBEDDED_URL;

async function call(base: string, method: 'GET' | 'POST', route: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${base.replace(/\/$/, '')}${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(10 * 60_000),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { raw: text.slice(0, 300) };
  }
  return { status: res.status, json };
}

export interface Publication {
  name: string;
  adapterPath: string;
  /** The version the adapter holds: the server must answer with it when it names one. */
  version: number;
  tolerance: number;
  /** A learner holding exactly this adapter, to score the canary's tokens. */
  scorer: () => Promise<LearnerProcess>;
  /** Of the names the server lists, those to unload once this one is proven. */
  retire?: (listed: string[]) => string[];
}

/** Load, list, canary, retire: the one publication path. Throws the failure vocabulary's Adapter* types. */
export async function publish(base: string, p: Publication): Promise<PublishResult> {
  return withHeartbeat(
    async () => {
      const load = await call(base, 'POST', '/load_lora_adapter', { lora_name: p.name, lora_path: p.adapterPath });
      if (load.status >= 400 && load.status < 500) throw failure(Failure.AdapterRejected, `inference server refused ${p.name}: HTTP ${load.status} ${JSON.stringify(load.json)}`);
      if (load.status !== 200) throw new Error(`loading ${p.name}: HTTP ${load.status} ${JSON.stringify(load.json)}`);
      const models = await call(base, 'GET', '/models');
      const ids = ((models.json.data as { id: string }[] | undefined) ?? []).map((m) => m.id);
      if (!ids.includes(p.name)) throw failure(Failure.AdapterNotServed, `/v1/models does not list ${p.name} after loading it (it lists ${ids.join(', ')})`);

      const reply = await call(base, 'POST', '/chat/completions', { model: p.name, messages: CANARY_MESSAGES, max_tokens: 12, temperature: 1.0, seed: 7, logprobs: true, return_token_ids: true });
      if (reply.status !== 200) throw new Error(`canary request to ${p.name}: HTTP ${reply.status} ${JSON.stringify(reply.json)}`);
      // the embedded server's weights metadata, or the version vLLM's served name carries (none for `sft-v<N>`)
      const served = servedPolicyVersion(reply.json);
      if (served !== p.version && (served !== null || versionOfAdapter(p.name) !== null)) {
        throw failure(Failure.AdapterMismatch, `canary: the server answered for ${p.name} with policy version ${served}, not ${p.version}`);
      }
      const choice = (reply.json.choices as { token_ids: number[]; logprobs: { content: { logprob: number }[] } }[])[0]!;
      const promptIds = reply.json.prompt_token_ids as number[];
      const serverLps = choice.logprobs.content.map((c) => c.logprob);
      const learner = await p.scorer();
      const scored = await learner.request({ type: 'score', sequences: [{ prompt_ids: promptIds, completion_ids: choice.token_ids }] });
      if (Number(scored.policy_version) !== p.version) throw new Error(`canary: the learner holds version ${String(scored.policy_version)}, not ${p.version}`);
      const mine = (scored.logprobs as number[][])[0]!;
      const maxAbsDiff = Math.max(...mine.map((lp, i) => Math.abs(lp - serverLps[i]!)));
      if (!(maxAbsDiff <= p.tolerance)) {
        throw failure(Failure.AdapterMismatch, `canary: ${p.name} serves logprobs up to ${maxAbsDiff.toFixed(5)} away from the learner's (tolerance ${p.tolerance}): the server is not running the trained adapter`);
      }

      const unloaded: string[] = [];
      for (const id of p.retire?.(ids) ?? []) {
        const u = await call(base, 'POST', '/unload_lora_adapter', { lora_name: id });
        if (u.status === 200 || u.status === 404) unloaded.push(id);
      }
      return { adapter: p.name, version: p.version, canary: { tokens: mine.length, maxAbsDiff, tolerance: p.tolerance }, unloaded };
    },
    { everyMs: 5000, details: { phase: 'publish' } },
  );
}

export function createAdapterActivities(deps: { config: Config }, host: LearnerHost) {
  return {
    /** A GRPO version: canary against the run's learner (it holds exactly that version right after the step), then
     * unload the run's versions at or below N - keep (a rollout may still be running on the last `keep`). */
    async publishAdapter(raw: PublishInput): Promise<PublishResult> {
      const input = parseInput(PublishInput, raw, 'publishAdapter');
      const name = input.name ?? adapterName(input.version);
      return publish(publishUrl(deps.config), {
        name,
        adapterPath: input.adapterPath,
        version: input.version,
        tolerance: input.tolerance,
        scorer: async () => {
          const learner = host.current();
          if (!learner) throw new Error('canary: the learner service is not running on this worker (it restarted since the step); retrying');
          return learner;
        },
        retire: (listed) => adaptersToRetire(listed, name, input.version, input.keep),
      });
    },
  };
}

export type AdapterActivities = ReturnType<typeof createAdapterActivities>;
