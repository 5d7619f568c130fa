/**
 * What a tool handler returns: the observation text the model reads and facts for metrics (`meta`, never shown to
 * the model). `ok: false` is a mistake of the agent it can read and recover from (the debug-gym split); losing the
 * infrastructure is a thrown HarnessInfraError instead (infra-error.ts).
 */

export interface Outcome {
  ok: boolean;
  output: string;
  meta: Record<string, unknown>;
}

export const ok = (output: string, meta: Record<string, unknown> = {}): Outcome => ({ ok: true, output, meta });
export const fail = (output: string, meta: Record<string, unknown> = {}): Outcome => ({ ok: false, output, meta });
