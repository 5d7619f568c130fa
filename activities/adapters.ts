/**
 * Publishing a trained adapter to the inference server, with proof of what it serves.
 *
 *   POST /v1/load_lora_adapter {lora_name: <run>--policy-v<N>, lora_path}  (vLLM's API; the embedded server speaks it)
 *   GET  /v1/models                                                         must list it
 *   canary: a fixed prompt to it; the server must say it used version N, and its logprobs of the tokens it sampled
 *           must match the learner's own scoring of the same tokens within CANARY_TOLERANCE
 *   unload  <run>--policy-v<k> for k <= N - (maxLag + 1): a rollout may still be running on any of the last maxLag + 1;
 *           other runs' adapters are theirs (common/training.ts, adaptersToRetire)
 *
 * The served name carries the run (common/training.ts, servedAdapterName): one server serves every run, and two runs'
 * `policy-v1` must not be one name. Loading a name again replaces its weights (the server's load_lora_adapter), so
 * a retried publication is harmless; the canary checks the weights that are served now.
 *
 * The canary catches an adapter that was never delivered (verl #7495: for two months it looked like staleness).
 * It runs on the GPU worker because it needs the learner, which holds exactly version N right after the step.
 */
import { heartbeat } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { parseInput } from '../common/boundary';
import type { Config } from '../common/config';
import { adapterName, adaptersToRetire, servedPolicyVersion, type PublishResult } from '../common/training';
import type { LearnerHost } from './learner';

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

export function createAdapterActivities(deps: { config: Config }, host: LearnerHost) {
  const base = () => deps.config.DEBUGRL_PUBLISH_URL ?? deps.config.DEBUGRL_EMBEDDED_URL;
  return {
    async publishAdapter(raw: PublishInput): Promise<PublishResult> {
      const input = parseInput(PublishInput, raw, 'publishAdapter');
      const name = input.name ?? adapterName(input.version);
      const load = await call(base(), 'POST', '/load_lora_adapter', { lora_name: name, lora_path: input.adapterPath });
      if (load.status >= 400 && load.status < 500) throw ApplicationFailure.nonRetryable(`inference server refused ${name}: HTTP ${load.status} ${JSON.stringify(load.json)}`, 'AdapterRejected');
      if (load.status !== 200) throw new Error(`loading ${name}: HTTP ${load.status} ${JSON.stringify(load.json)}`);
      const models = await call(base(), 'GET', '/models');
      const ids = ((models.json.data as { id: string }[] | undefined) ?? []).map((m) => m.id);
      if (!ids.includes(name)) throw ApplicationFailure.nonRetryable(`/v1/models does not list ${name} after loading it (it lists ${ids.join(', ')})`, 'AdapterNotServed');

      heartbeat({ phase: 'canary' });
      const reply = await call(base(), 'POST', '/chat/completions', { model: name, messages: CANARY_MESSAGES, max_tokens: 12, temperature: 1.0, seed: 7, logprobs: true, return_token_ids: true });
      if (reply.status !== 200) throw new Error(`canary request to ${name}: HTTP ${reply.status} ${JSON.stringify(reply.json)}`);
      const served = servedPolicyVersion(reply.json); // the embedded server's weights metadata, or vLLM's served name
      if (served !== input.version) throw ApplicationFailure.nonRetryable(`canary: the server answered for ${name} with policy version ${served}, not ${input.version}`, 'AdapterMismatch');
      const choice = (reply.json.choices as { token_ids: number[]; logprobs: { content: { logprob: number }[] } }[])[0];
      const promptIds = reply.json.prompt_token_ids as number[];
      const serverLps = choice.logprobs.content.map((c) => c.logprob);
      const learner = host.current();
      if (!learner) throw new Error('canary: the learner service is not running on this worker (it restarted since the step); retrying');
      const scored = await learner.request({ type: 'score', sequences: [{ prompt_ids: promptIds, completion_ids: choice.token_ids }] });
      if (Number(scored.policy_version) !== input.version) throw new Error(`canary: the learner holds version ${String(scored.policy_version)}, not ${input.version}`);
      const mine = (scored.logprobs as number[][])[0];
      const maxAbsDiff = Math.max(...mine.map((lp, i) => Math.abs(lp - serverLps[i])));
      if (!(maxAbsDiff <= input.tolerance)) {
        throw ApplicationFailure.nonRetryable(`canary: ${name} serves logprobs up to ${maxAbsDiff.toFixed(5)} away from the learner's (tolerance ${input.tolerance}): the server is not running the trained adapter`, 'AdapterMismatch');
      }

      const unloaded: string[] = [];
      for (const id of adaptersToRetire(ids, name, input.version, input.keep)) {
        const u = await call(base(), 'POST', '/unload_lora_adapter', { lora_name: id });
        if (u.status === 200 || u.status === 404) unloaded.push(id);
      }
      return { adapter: name, version: input.version, canary: { tokens: mine.length, maxAbsDiff, tolerance: input.tolerance }, unloaded };
    },
  };
}

export type AdapterActivities = ReturnType<typeof createAdapterActivities>;
