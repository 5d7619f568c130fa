/**
 * The training run's circuit breaker: when groups keep failing for the same infrastructure cause, the run stops
 * opening groups instead of burning episodes on a server that cannot answer (issue 22: an embedded server restarted
 * without adapters, every episode got HTTP 404, and the run opened 15 failing groups in 2.5 minutes).
 *
 *   cause     an episode's error text, read into a kind and a key (the same key = the same cause);
 *   streak    failed groups in a row whose last failure had that key; a sealed group resets it;
 *   trip      streak >= threshold: the run pauses with the cause. After a probe finds the cause gone it resumes
 *             half-open: the streak stays at threshold - 1, so one more such failed group trips it again.
 *
 * Pure (workflow code imports it).
 */

export type FailureKind = 'adapter-not-served' | 'policy-server-unreachable' | 'policy-server-error' | 'sandbox' | 'other';

export interface FailureCause {
  kind: FailureKind;
  /** Equal keys are the same cause: the kind, and the adapter name for a 404. */
  key: string;
  /** The error text, shortened, for the memo and the progress query. */
  detail: string;
}

/** What the embedded server says for an adapter it does not hold (native inference/engine.py), and vLLM's wording. */
const NOT_SERVED = [/model:? '([^']+)' is neither 'default' nor a loaded adapter/, /The model [`'"]([^`'"]+)[`'"] does not exist/];
const UNREACHABLE = /fetch failed|ECONNREFUSED|ECONNRESET|EHOSTUNREACH|socket hang up|UND_ERR|other side closed|ETIMEDOUT|timed? ?out/i;
const SERVER_ERROR = /policy server answered HTTP (5\d\d)/;
const SANDBOX = /SandboxLost|SandboxUnavailable|openSandbox|bubblewrap|sandbox/i;

/** The cause of an episode's infrastructure failure, from its error text (EpisodeResult.error or the child's failure). */
export function episodeFailureCause(error: string | null | undefined): FailureCause {
  const text = (error ?? 'the episode failed without an error message').replace(/\s+/g, ' ').trim();
  const detail = text.slice(0, 300);
  for (const re of NOT_SERVED) {
    const m = re.exec(text);
    if (m) return { kind: 'adapter-not-served', key: `adapter-not-served:${m[1]}`, detail };
  }
  if (/policyReply/.test(text) || /policy server/.test(text)) {
    const status = SERVER_ERROR.exec(text);
    if (status) return { kind: 'policy-server-error', key: `policy-server-error:${status[1]}`, detail };
    if (UNREACHABLE.test(text)) return { kind: 'policy-server-unreachable', key: 'policy-server-unreachable', detail };
  }
  if (SANDBOX.test(text)) return { kind: 'sandbox', key: 'sandbox', detail };
  // Digits differ between otherwise equal messages (ids, ports, counts): the key ignores them.
  return { kind: 'other', key: `other:${text.replace(/\d+/g, '#').slice(0, 120)}`, detail };
}

/** Whether the policy server is behind a cause, so that a probe of the server can tell when it is gone. */
export const isPolicyServerCause = (kind: FailureKind) => kind === 'adapter-not-served' || kind === 'policy-server-unreachable' || kind === 'policy-server-error';

export interface BreakerState {
  streak: number;
  cause: FailureCause | null;
  trips: number;
}

export const closedBreaker = (): BreakerState => ({ streak: 0, cause: null, trips: 0 });

/** A group failed (past its retries) with `cause` as its last failure. Returns the new state and whether it tripped. */
export function foldFailedGroup(s: BreakerState, cause: FailureCause, threshold: number): { state: BreakerState; tripped: boolean } {
  const streak = s.cause?.key === cause.key ? s.streak + 1 : 1;
  const tripped = streak >= threshold;
  return { state: { streak, cause, trips: s.trips + (tripped ? 1 : 0) }, tripped };
}

/** A group sealed: the infrastructure works, the streak ends. */
export const foldSealedGroupOk = (s: BreakerState): BreakerState => ({ ...s, streak: 0, cause: null });

/** After a probe found the cause gone: half-open, one more failed group with the same cause trips again. */
export const halfOpen = (s: BreakerState, threshold: number): BreakerState => ({ ...s, streak: Math.max(0, threshold - 1) });

/** The pause text: the cause and how the pause ends. */
export function breakerPauseCause(cause: FailureCause, streak: number, probeSeconds: number): string {
  const ends = isPolicyServerCause(cause.kind) ? `probing the policy server every ${probeSeconds} s` : `retrying after ${probeSeconds} s`;
  return `${streak} group(s) in a row failed with ${cause.kind} (${cause.detail.slice(0, 200)}); ${ends}, or send the resume signal`;
}
