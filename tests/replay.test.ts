/** Replays every saved workflow history in tests/histories/ against the current workflow code. A change that breaks
 * determinism (a reordered activity, a new timer without patching) fails here before it breaks a running workflow.
 * Save a new history with `temporal workflow show -w <id> -o json > tests/histories/<Type>@<id>.json`: the workflow id is
 * part of the name because workflows may use it (an evaluation names its child episodes after it). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { DeterminismViolationError } from '@temporalio/workflow';
import { bundleWorkflowCode, DefaultLogger, Worker } from '@temporalio/worker';
import { quietRuntime, workflowBundle } from './helpers/services';

const dir = path.join(__dirname, 'histories');
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

describe('replay of saved histories', () => {
  beforeAll(() => quietRuntime());

  it('has a saved history for every exported workflow type', async () => {
    const workflows = await import('../workflows');
    const types = Object.keys(workflows).filter((k) => k.endsWith('Workflow'));
    const saved = new Set(files.map((f) => f.split('@')[0]));
    expect(types.filter((t) => !saved.has(t))).toEqual([]);
  });

  it.each(files)('%s replays without nondeterminism', async (file) => {
    const history = historyFromJSON(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
    const workflowId = file.slice(file.indexOf('@') + 1, -'.json'.length);
    await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, workflowId);
  });

  it('catches a workflow change that breaks determinism', async () => {
    const changed = await bundleWorkflowCode({ workflowsPath: path.join(__dirname, 'fixtures/changed-workflows/index.ts'), logger: new DefaultLogger('WARN') });
    const file = files.find((f) => f.startsWith('SmokeWorkflow@'))!;
    const history = historyFromJSON(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
    await expect(Worker.runReplayHistory({ workflowBundle: changed }, history, file.slice(file.indexOf('@') + 1, -5))).rejects.toBeInstanceOf(DeterminismViolationError);
  });
});
