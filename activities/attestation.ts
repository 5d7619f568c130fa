/**
 * Continuous attestation of the served adapter (issue 22): publishAdapter proves once, with the canary, that the
 * server runs the trained weights; this asks again, during the run, whether the server still serves them.
 *
 *   GET  /v1/models                       must list the run's adapter <run>--policy-v<N>
 *   POST /v1/chat/completions {model: it} must answer, and name version N (the embedded server's `policy_version`,
 *                                         vLLM's served name: common/training.ts servedPolicyVersion)
 *
 * A server that restarted lists no adapters and answers 404: the workflow then re-publishes the adapter (the full
 * load + list + canary of publishAdapter, on the GPU worker). An unreachable server is an error, retried by the
 * caller's policy: the circuit breaker's probe uses it to tell when the server is back.
 *
 * Runs on any worker of the shared queue (it needs only HTTP and PostgreSQL).
 */
import type { Pool } from 'pg';
import { z } from 'zod';
import { parseInput } from '../common/boundary';
import type { Config } from '../common/config';
import { servedPolicyVersion } from '../common/training';
import { lastCommitted } from './training-store';

export const AttestInput = z
  .object({
    runId: z.string().min(1),
    /** The served name of the run's current adapter, and its version. */
    name: z.string().regex(/^[\w.:-]{1,200}$/),
    version: z.number().int().min(0),
  })
  .strict();
export type AttestInput = z.input<typeof AttestInput>;

export interface Attestation {
  /** /v1/models lists the adapter. */
  listed: boolean;
  /** The version the server answered for it with; null when it did not answer (404) or does not say. */
  servedVersion: number | null;
  /** What the server said when it did not serve the adapter (HTTP status and the start of its body). */
  refusal: string | null;
  /** The committed adapter folder of this version (training_steps), for a re-publication; null if none is committed
   * (version 0 of a run from an init adapter: the workflow holds that path). */
  adapterPath: string | null;
}

const ATTEST_MESSAGES = [{ role: 'user', content: 'Reply with one word.' }];

async function call(base: string, method: 'GET' | 'POST', route: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown>; text: string }> {
  const res = await fetch(`${base.replace(/\/$/, '')}${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(120_000),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = {};
  }
  return { status: res.status, json, text: text.slice(0, 300) };
}

export function createAttestationActivities(deps: { config: Config; pool: Pool }) {
  const base = () => deps.config.DEBUGRL_PUBLISH_URL ?? deps.config.DEBUGRL_EMBEDDED_URL;
  return {
    async attestServedAdapter(raw: AttestInput): Promise<Attestation> {
      const input = parseInput(AttestInput, raw, 'attestServedAdapter');
      const models = await call(base(), 'GET', '/models');
      if (models.status !== 200) throw new Error(`attestation: GET /models on ${base()} answered HTTP ${models.status}: ${models.text}`);
      const ids = ((models.json.data as { id: string }[] | undefined) ?? []).map((m) => m.id);
      const committed = await lastCommitted(deps.pool, input.runId);
      const adapterPath = committed.version === input.version ? committed.adapterPath : null;
      const listed = ids.includes(input.name);
      const reply = await call(base(), 'POST', '/chat/completions', { model: input.name, messages: ATTEST_MESSAGES, max_tokens: 1, temperature: 0 });
      if (reply.status >= 500) throw new Error(`attestation: the server answered HTTP ${reply.status} for ${input.name}: ${reply.text}`);
      if (reply.status !== 200) return { listed, servedVersion: null, refusal: `HTTP ${reply.status}: ${reply.text}`, adapterPath };
      return { listed, servedVersion: servedPolicyVersion(reply.json), refusal: null, adapterPath };
    },
  };
}

export type AttestationActivities = ReturnType<typeof createAttestationActivities>;
