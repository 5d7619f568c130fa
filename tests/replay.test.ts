/** Replays every saved workflow history in tests/histories/ against the current workflow code. A change that breaks
 * determinism (a reordered activity, a new timer without patching) fails here before it breaks a running workflow.
 * Save a new history with `temporal workflow show -w <id> -o json > tests/histories/<Type>[-case].json`. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { quietRuntime, workflowBundle } from './helpers/services';

const dir = path.join(__dirname, 'histories');
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

describe('replay of saved histories', () => {
  beforeAll(() => quietRuntime());

  it('has a saved history for every exported workflow type', async () => {
    const workflows = await import('../workflows');
    const types = Object.keys(workflows).filter((k) => k.endsWith('Workflow'));
    const saved = new Set(files.map((f) => f.replace(/(-[\w-]+)?\.json$/, '')));
    expect(types.filter((t) => !saved.has(t))).toEqual([]);
  });

  it.each(files)('%s replays without nondeterminism', async (file) => {
    const history = historyFromJSON(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
    await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, file);
  });
});
