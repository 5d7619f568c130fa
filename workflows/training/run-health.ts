/**
 * A training run's health guards (issue 22), all behind the 'training-run-guards' marker:
 *
 *   pause        one place that pauses and resumes the run, with the reason in the workflow's memo (the Temporal UI
 *                shows it; `train status` reads it) and in the progress query. Paused, no episode starts; paused by
 *                the mismatch alarm, no step trains either.
 *   attestation  every `attestEvery` steps, and at once when an episode gets a 404 for the run's current adapter,
 *                the learner loop asks the server whether it still serves that adapter (activities/attestation.ts)
 *                and, if not, re-publishes it with the full canary (publishAdapter) and counts the event. No episode
 *                starts while an attestation is pending, so a server that lost the adapter costs at most the
 *                episodes already running, which are retried without counting against their group.
 *   breaker      `breakerGroups` failed groups in a row with the same cause (common/circuit-breaker.ts) pause the
 *                run; a probe every `breakerProbeSeconds` (an attestation when the policy server is the cause, else
 *                the wait alone) resumes it half-open.
 *   alarm        lag-0 k3 over `mismatchAlarmK3` for `mismatchAlarmSteps` steps in a row (common/mismatch-alarm.ts)
 *                pauses the run until the resume signal, before the step's new adapter is published.
 *
 * Deterministic workflow code.
 */
import { condition, sleep, upsertMemo } from '@temporalio/workflow';
import { breakerPauseCause, foldFailedGroup, foldSealedGroupOk, halfOpen, isPolicyServerCause, type FailureCause } from '../../common/circuit-breaker';
import { alarmPauseCause, foldMismatchStep, rearmed } from '../../common/mismatch-alarm';
import { mismatchOf } from '../../common/mismatch';
import { servedAdapterName, type RunHealth, type RunPause, type StepResult } from '../../common/training';
import type { Run } from './run-state';

/** Paused for any reason: no episode starts. */
export const rolloutsPaused = (run: Run): boolean => (run.state.pause ?? null) !== null || run.state.paused;
/** Paused by the mismatch alarm: no step trains either (the queued groups were served by a policy the learner does not
 * hold). */
export const trainingPaused = (run: Run): boolean => run.state.pause?.reason === 'mismatch-alarm';

/** The memo the Temporal UI shows and `train status` reads: whether the run is paused, why, and the guards' counts. */
export function writeMemo(run: Run): void {
  if (!run.guards) return;
  const { state } = run;
  upsertMemo({
    trainingState: state.pause ? 'paused' : 'running',
    pauseReason: state.pause?.reason ?? null,
    pauseCause: state.pause?.cause ?? null,
    step: state.step,
    policyVersion: state.version,
    attestations: state.attestation!.checks,
    republished: state.attestation!.republished,
    breakerTrips: state.breaker!.trips,
    alarmTrips: state.alarm!.trips,
  });
}

export function pauseRun(run: Run, reason: RunPause['reason'], cause: string): void {
  // A guard's reason replaces the signal's (it says more); the signal never hides a guard's.
  if (run.state.pause && (reason === 'signal' || run.state.pause.reason !== 'signal')) return;
  run.state.pause = { reason, cause, sinceMs: Date.now() };
  run.state.paused = true;
  writeMemo(run);
  if (reason === 'circuit-breaker') void probeUntilClosed(run);
}

/** Resume, whatever paused the run. The resume signal re-arms the alarm and closes the breaker: a person said the
 * cause is gone. */
export function resumeRun(run: Run, bySignal: boolean): void {
  const { state } = run;
  if (bySignal) {
    state.alarm = rearmed(state.alarm!);
    state.breaker = { ...state.breaker!, streak: 0, cause: null };
  }
  const was = state.pause;
  state.pause = null;
  state.paused = false;
  if (was || bySignal) writeMemo(run);
}

// --- attestation --------------------------------------------------------------------------------------------------

/** Ask the learner loop for an attestation (one at a time; a request while one is pending joins it). Resolves with
 * whether the server serves the current adapter afterwards; false if the learner loop has ended. */
export async function requestAttestation(run: Run, reason: string): Promise<boolean> {
  const { live } = run;
  if (live.attestRequest === null) live.attestRequest = reason;
  const seq = live.attestSeq;
  await condition(() => live.attestSeq > seq || live.learnerDone);
  return live.attestSeq > seq && live.attestOk;
}

/** Run the pending attestation request (the learner loop calls this between steps, when the learner holds exactly
 * the current version, as publishAdapter's canary needs). */
export async function serveAttestation(run: Run): Promise<void> {
  const reason = run.live.attestRequest ?? 'requested';
  const ok = await attest(run, reason);
  run.live.attestRequest = null;
  run.live.attestOk = ok;
  run.live.attestSeq++;
}

/** Does the server still serve the current adapter? If it lost it, re-publish it. Returns whether it serves it now. */
export async function attest(run: Run, reason: string): Promise<boolean> {
  const { state, cfg, runId, scope } = run;
  const counts = state.attestation!;
  counts.checks++;
  const base = state.version === 0 && !run.fromInit;
  // At the base model there is no adapter: the server only has to answer for its own model.
  const name = base ? 'default' : servedAdapterName(scope, state.version);
  const said = (text: string, ok: boolean) => {
    counts.last = `step ${state.step}, ${reason}: ${text}`;
    writeMemo(run);
    return ok;
  };
  let seen: Awaited<ReturnType<Run['health']['attestServedAdapter']>>;
  try {
    seen = await run.health.attestServedAdapter({ runId, name, version: state.version });
  } catch (e) {
    return said(`the server did not answer (${errorText(e).slice(0, 200)})`, false);
  }
  if (base) return said(seen.refusal === null ? 'the base model answers' : `the base model is refused: ${seen.refusal}`, seen.refusal === null);
  if (seen.listed && seen.servedVersion === state.version) return said(`${name} served as v${state.version}`, true);
  const adapterPath = seen.adapterPath ?? state.adapterPath ?? null;
  const lost = seen.refusal ?? (seen.listed ? `answered as version ${seen.servedVersion}` : 'not listed');
  if (!adapterPath) return said(`${name} is not served (${lost}) and no adapter folder is known to re-publish`, false);
  try {
    await run.gpu.publishAdapter({ runId, version: state.version, adapterPath, keep: cfg.maxPolicyLag + 1, ...(scope ? { name } : {}) });
  } catch (e) {
    return said(`${name} is not served (${lost}); re-publishing failed: ${errorText(e).slice(0, 200)}`, false);
  }
  counts.republished++;
  return said(`${name} was not served (${lost}); re-published with the canary`, true);
}

function errorText(e: unknown): string {
  const parts: string[] = [];
  for (let x: unknown = e; x instanceof Error && parts.length < 4; x = (x as Error & { cause?: unknown }).cause) parts.push(x.message);
  return parts.join(': ') || String(e);
}

// --- episodes and groups ------------------------------------------------------------------------------------------

/** An episode failed with `cause` at `policy`. Returns whether it counts against its group's retries: a 404 for the
 * run's current adapter does not (an attestation re-publishes it, and no episode starts meanwhile), unless such
 * failures keep coming past one pool's worth after attestations. */
export function onEpisodeFailure(run: Run, cause: FailureCause, policy: string): boolean {
  if (!run.guards || cause.kind !== 'adapter-not-served') return true;
  const current = servedAdapterName(run.scope, run.state.version);
  if (!policy.endsWith(`:${current}`) || !cause.key.endsWith(`:${current}`)) return true;
  if (++run.live.unservedStreak > 2 * run.live.poolSize) return true;
  void requestAttestation(run, `an episode got ${cause.detail.slice(0, 120)}`).then((ok) => {
    // The server still does not serve the adapter: stop here rather than fail episode after episode. (Several
    // failures share one attestation; the first to hear of it trips the breaker.)
    if (!ok && !run.live.learnerDone && run.state.pause?.reason !== 'circuit-breaker') tripBreaker(run, { ...cause, detail: `${cause.detail.slice(0, 150)}; ${run.state.attestation!.last ?? ''}` });
  });
  return false;
}

/** An episode was scored: the server serves what the run asks for. */
export function onEpisodeScored(run: Run): void {
  run.live.unservedStreak = 0;
}

export function onGroupFailed(run: Run, cause: FailureCause): void {
  if (!run.guards) return;
  const folded = foldFailedGroup(run.state.breaker!, cause, run.cfg.breakerGroups);
  run.state.breaker = folded.state;
  if (folded.tripped) pauseRun(run, 'circuit-breaker', breakerPauseCause(cause, folded.state.streak, run.cfg.breakerProbeSeconds));
}

export function onGroupSealed(run: Run): void {
  if (run.guards) run.state.breaker = foldSealedGroupOk(run.state.breaker!);
}

function tripBreaker(run: Run, cause: FailureCause): void {
  const b = run.state.breaker!;
  run.state.breaker = { streak: Math.max(b.streak, run.cfg.breakerGroups), cause, trips: b.trips + 1 };
  pauseRun(run, 'circuit-breaker', breakerPauseCause(cause, run.state.breaker.streak, run.cfg.breakerProbeSeconds));
}

/** While the breaker holds the run paused: every probe interval, check whether the cause is gone, and resume
 * half-open when it is. One probe loop at a time; it ends when the run resumes, stops or ends its chunk. */
export async function probeUntilClosed(run: Run): Promise<void> {
  const { live, state, cfg } = run;
  if (live.probing) return;
  live.probing = true;
  try {
    while (state.pause?.reason === 'circuit-breaker' && !live.stopping && !live.chunkOver && !live.learnerDone) {
      await sleep(cfg.breakerProbeSeconds * 1000);
      if (state.pause?.reason !== 'circuit-breaker') return;
      const cause = state.breaker!.cause;
      const gone = cause && isPolicyServerCause(cause.kind) ? await requestAttestation(run, 'circuit-breaker probe') : true;
      if (gone && state.pause?.reason === 'circuit-breaker') {
        state.breaker = halfOpen(state.breaker!, cfg.breakerGroups);
        live.unservedStreak = 0;
        resumeRun(run, false);
      }
    }
  } finally {
    live.probing = false;
  }
}

// --- the mismatch alarm -------------------------------------------------------------------------------------------

/** Fold a trained step's lag-0 k3 into the alarm; pause the run when it trips. */
export function onStepTrained(run: Run, res: StepResult): void {
  if (!run.guards) return;
  const settings = { maxK3: run.cfg.mismatchAlarmK3, steps: run.cfg.mismatchAlarmSteps };
  const folded = foldMismatchStep(run.state.alarm!, mismatchOf(res.metrics)?.mismatch_k3_lag0 ?? null, settings);
  run.state.alarm = folded.state;
  if (folded.tripped) pauseRun(run, 'mismatch-alarm', alarmPauseCause(folded.state, settings));
}

export function healthProgress(run: Run): RunHealth {
  const { attestation: a, breaker: b, alarm: m } = run.state;
  return {
    attestations: a!.checks, republished: a!.republished, lastAttestation: a!.last,
    breakerStreak: b!.streak, breakerCause: b!.cause?.detail ?? null, breakerTrips: b!.trips,
    alarmStreak: m!.streak, lastK3Lag0: m!.last, alarmTrips: m!.trips,
  };
}
