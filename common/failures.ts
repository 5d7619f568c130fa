/**
 * The failure vocabulary: every ApplicationFailure type the workflows and activities raise or react to, in one place.
 * Workflows list these in `nonRetryableErrorTypes` and test for them; activities raise them with `failure()`. Pure
 * (workflow code imports it).
 *
 * The rule from the harness: an agent's mistake is an observation, never a failure. These are for the caller's
 * mistakes (retrying fails the same way) and for losses of infrastructure (recover or retry).
 */
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';

export const Failure = {
  /** A workflow or activity input is wrong (a field, an unknown task): retrying fails the same way. */
  InvalidInput: 'InvalidInput',
  /** The policy spec cannot be used (an unknown kind, a scripted file that is missing or does not parse). */
  InvalidPolicy: 'InvalidPolicy',
  /** The policy server refused the request (an HTTP 4xx other than context overflow: a model name, a key). */
  PolicyRequestError: 'PolicyRequestError',
  /** The sandbox is gone (its worker restarted, bubblewrap or the debugger bridge could not run): the workflow
   * rebuilds it on another worker. */
  SandboxLost: 'SandboxLost',
  /** The sandbox could not be created on this worker; another attempt (maybe on another worker) may succeed. */
  SandboxUnavailable: 'SandboxUnavailable',
  /** The harness failed in a way that is neither the agent's mistake nor a lost sandbox (a bug in the harness).
   * Not retried: rerunning a call that crashed the harness could apply its effects twice. */
  HarnessError: 'HarnessError',
  /** An event the workflow relies on is missing from the event log (a claim check that points at nothing). */
  MissingEvent: 'MissingEvent',
  /** A training step asked for out of order (the last committed step is not the one before it). */
  StepOutOfOrder: 'StepOutOfOrder',
  /** The learner refused a batch it cannot train on (a token outside the vocabulary, a sample from a future version). */
  InvalidBatch: 'InvalidBatch',
  /** The inference server refused to load an adapter (HTTP 4xx: a bad folder, a rank above --max-lora-rank). */
  AdapterRejected: 'AdapterRejected',
  /** The server accepted an adapter but does not list it in /v1/models. */
  AdapterNotServed: 'AdapterNotServed',
  /** The canary: the server answers for an adapter with another version, or with logprobs the learner's weights do
   * not give (it is not running the trained adapter). */
  AdapterMismatch: 'AdapterMismatch',
} as const;
export type FailureType = (typeof Failure)[keyof typeof Failure];

/** A failure of one of the vocabulary's types. Non-retryable unless `retryable` is set. */
export function failure(type: FailureType, message: string, opts: { retryable?: boolean; cause?: Error } = {}): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable: !opts.retryable, cause: opts.cause });
}

/** `nonRetryableErrorTypes` per kind of activity. */
export const NON_RETRYABLE = {
  /** Bookkeeping against PostgreSQL and Kafka. */
  store: [Failure.InvalidInput, Failure.MissingEvent],
  /** A model call. */
  policy: [Failure.InvalidInput, Failure.InvalidPolicy, Failure.PolicyRequestError, Failure.MissingEvent],
  /** Creating a sandbox on any worker. */
  opener: [Failure.InvalidInput],
  /** Calls on the worker that holds the sandbox. */
  sandbox: [Failure.InvalidInput, Failure.SandboxLost, Failure.HarnessError, Failure.MissingEvent],
  /** The learner's activities on the GPU worker: a training step, an SFT epoch, publishing an adapter. */
  learner: [Failure.InvalidInput, Failure.StepOutOfOrder, Failure.InvalidBatch, Failure.AdapterRejected, Failure.AdapterNotServed, Failure.AdapterMismatch],
} satisfies Record<string, FailureType[]>;

/** The ApplicationFailure type behind an error, whether raised here or reported as an activity's cause. */
export function failureTypeOf(err: unknown): string | undefined {
  const inner = err instanceof ActivityFailure ? err.cause : err;
  return inner instanceof ApplicationFailure ? (inner.type ?? undefined) : undefined;
}
