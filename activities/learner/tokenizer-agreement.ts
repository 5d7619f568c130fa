/**
 * Does the learner's tokenizer agree with the inference server's? Checked from here before a run starts (the CLI,
 * before any rollout) and again by the learner service at start-up (config.py `serving`). Token in, token out: the
 * learner trains on the ids the server sampled, so both must mean the same thing by every id.
 *
 * The server's side comes from the server itself:
 *   GET  <base>/tokenizer_facts      the embedded server: vocabulary size, special tokens, and its own ids for the
 *                                    fixed probe conversation (protocol.py PROBE_CONVERSATION), in one answer
 *   GET  <root>/tokenizer_info       vLLM (with --enable-tokenizer-info-endpoint): its tokenizer_config, whose
 *                                    added_tokens_decoder names the special tokens; it reports no vocabulary size
 *   POST <root>/tokenize             vLLM: its own ids for the probe conversation rendered by its chat template
 * and the learner's side from the model directory, compared by native/…/learner/tokenizer_check.py, which names what
 * differs.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { z } from 'zod';
import { REPO_ROOT } from '../../common/config';
import type { ServingFacts } from './config';

const ChatMessage = z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() }).strict();
type ChatMessage = z.infer<typeof ChatMessage>;

/** protocol.py ServingFacts, as a server reports it. */
export const ServingFactsReply = z.object({
  vocab_size: z.number().int().min(1).nullable().optional(),
  special_tokens: z.record(z.string(), z.number().int().min(0)),
  chat_messages: z.array(ChatMessage).optional(),
  chat_token_ids: z.array(z.number().int().min(0)).nullable().optional(),
});

function python(py: string, args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(py, ['-m', 'debugrl_native.learner.tokenizer_check', ...args], { cwd: path.join(REPO_ROOT, 'native'), encoding: 'utf8', input, timeout: 120_000 });
  if (r.error) throw new Error(`the tokenizer check could not run: ${r.error.message}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The fixed conversation both sides render (Python owns it). */
export function probeConversation(py: string): ChatMessage[] {
  const r = python(py, ['probe']);
  if (r.status !== 0) throw new Error(`the probe conversation: ${r.stderr.trim().split('\n').at(-1)}`);
  return z.array(ChatMessage).parse(JSON.parse(r.stdout));
}

async function getJson(url: string, init?: RequestInit): Promise<unknown | null> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    if (!res.ok) return null;
    return (await res.json()) as unknown;
  } catch {
    return null;
  }
}

/** The server's tokenizer facts, or null when it reports none (then the check cannot be made, and says so). `base` is
 * the OpenAI base URL (…/v1). */
export async function fetchServingFacts(base: string, probe: () => ChatMessage[]): Promise<ServingFacts | null> {
  const v1 = base.replace(/\/$/, '');
  const own = ServingFactsReply.safeParse(await getJson(`${v1}/tokenizer_facts`));
  if (own.success) return own.data as ServingFacts;
  const root = v1.replace(/\/v1$/, '');
  const info = (await getJson(`${root}/tokenizer_info`)) as { added_tokens_decoder?: Record<string, { content?: string; special?: boolean }> } | null;
  const messages = probe();
  const tok = (await getJson(`${root}/tokenize`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages, add_generation_prompt: false, add_special_tokens: false }) })) as { tokens?: number[] } | null;
  if (!info?.added_tokens_decoder || !Array.isArray(tok?.tokens)) return null;
  const special_tokens = Object.fromEntries(
    Object.entries(info.added_tokens_decoder)
      .filter(([, t]) => t.special && typeof t.content === 'string')
      .map(([id, t]) => [t.content!, Number(id)]),
  );
  return { vocab_size: null, special_tokens, chat_messages: messages, chat_token_ids: tok.tokens };
}

/** Throws, naming every difference, when the tokenizer in `modelDir` disagrees with the server's facts. */
export function checkTokenizerAgreement(py: string, modelDir: string, facts: ServingFacts): void {
  const r = python(py, ['check', modelDir], JSON.stringify(facts));
  if (r.status !== 0) throw new Error(r.stderr.trim().split('\n').at(-1) ?? `the tokenizer check exited with ${r.status}`);
}
