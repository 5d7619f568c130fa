/** workers/cli-kit.ts workflowResult: a lost long poll (the ServiceError a loaded Temporal server answers with,
 * DEADLINE_EXCEEDED) is asked again until the result comes; the workflow's own failure is thrown at once. */
import { ServiceError, WorkflowFailedError } from '@temporalio/client';
import { workflowResult } from '../workers/cli-kit';

describe('workflowResult', () => {
  it('asks again after lost long polls and returns the result', async () => {
    let calls = 0;
    const handle = {
      result: async () => {
        if (++calls <= 2) throw new ServiceError('Failed to get Workflow execution history', { cause: new Error('4 DEADLINE_EXCEEDED: context deadline exceeded') });
        return { version: 2 };
      },
    };
    await expect(workflowResult(handle, 1)).resolves.toEqual({ version: 2 });
    expect(calls).toBe(3);
  });

  it('throws the workflow’s failure without asking again', async () => {
    let calls = 0;
    const failed = new WorkflowFailedError('Workflow execution failed', undefined, 'NON_RETRYABLE_FAILURE');
    const handle = {
      result: async () => {
        calls++;
        throw failed;
      },
    };
    await expect(workflowResult(handle, 1)).rejects.toBe(failed);
    expect(calls).toBe(1);
  });
});
