/** native/tests/fixtures/harness_tool_specs.json is the tool list the Python constrained-decoding tests run against.
 * It must be exactly what the harness shows the model, or those tests check a stale schema. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { toolSpecs } from '../harness/tools';

it('the Python tests’ copy of the tool schemas matches harness/tools.ts', () => {
  const saved = JSON.parse(fs.readFileSync(path.join(__dirname, '../native/tests/fixtures/harness_tool_specs.json'), 'utf8'));
  // Regenerate with: node -e "console.log(JSON.stringify(require('./lib/harness/tools.js').toolSpecs('full'), null, 1))"
  expect(saved).toEqual(JSON.parse(JSON.stringify(toolSpecs('full'))));
});
