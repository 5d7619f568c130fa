/** Which policy drives an episode, as one string that fits a CLI flag and a search attribute:
 *
 *   scripted:<file.jsonl>          replay tool calls from a JSONL file, one {"name","arguments"} per line
 *   embedded[:<adapter>]           the CPU inference server in native/ (SmolLM2-135M-Instruct), optionally a LoRA adapter
 *   openai:<model>@<base url>      any OpenAI-compatible chat-completions server with tool calling (vLLM, hosted APIs);
 *                                  the API key, if any, comes from DEBUGRL_OPENAI_API_KEY on the worker
 *   oracle                         the offline teacher: replays the held-back fix as a debugging session (train split only)
 */
import { z } from 'zod';

export const PolicySpec = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('scripted'), path: z.string().min(1) }),
  z.object({ kind: z.literal('embedded'), adapter: z.string().regex(/^[\w.-]+$/).nullable() }),
  z.object({ kind: z.literal('openai'), model: z.string().min(1), baseUrl: z.string().url() }),
  z.object({ kind: z.literal('oracle') }),
]);
export type PolicySpec = z.infer<typeof PolicySpec>;

export function parsePolicySpec(spec: string): PolicySpec {
  const i = spec.indexOf(':');
  const kind = i < 0 ? spec : spec.slice(0, i);
  const rest = i < 0 ? '' : spec.slice(i + 1);
  switch (kind) {
    case 'scripted':
      if (!rest) throw new Error('policy "scripted" needs a file: scripted:<file.jsonl>');
      return { kind, path: rest };
    case 'embedded':
      return PolicySpec.parse({ kind, adapter: rest || null });
    case 'openai': {
      const at = rest.lastIndexOf('@');
      if (at <= 0) throw new Error('policy "openai" needs a model and a server: openai:<model>@<base url>');
      const parsed = PolicySpec.safeParse({ kind, model: rest.slice(0, at), baseUrl: rest.slice(at + 1) });
      if (!parsed.success) throw new Error(`policy "${spec}": base url must be an http(s) URL`);
      return parsed.data;
    }
    case 'oracle':
      if (rest) throw new Error('policy "oracle" takes no argument');
      return { kind };
    default:
      throw new Error(`unknown policy "${spec}": use scripted:<file.jsonl>, embedded[:<adapter>], openai:<model>@<base url> or oracle`);
  }
}

/** A zod string that must parse as a policy spec (for workflow inputs). */
export const PolicySpecString = z.string().superRefine((s, ctx) => {
  try {
    parsePolicySpec(s);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: (e as Error).message });
  }
});
