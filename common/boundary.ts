/** Validation at the edge of every workflow and activity. A bad input is the caller's mistake, so it becomes a
 * non-retryable ApplicationFailure whose message names each offending field; retrying would fail the same way. */
import { ApplicationFailure } from '@temporalio/common';
import type { z } from 'zod';
import { Failure } from './failures';

export function describeZodError(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`).join('; ');
}

export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.infer<S> {
  const r = schema.safeParse(input);
  if (!r.success) {
    throw ApplicationFailure.create({
      type: Failure.InvalidInput,
      message: `invalid ${what} input: ${describeZodError(r.error)}`,
      nonRetryable: true,
    });
  }
  return r.data;
}
