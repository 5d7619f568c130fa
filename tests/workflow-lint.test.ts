/** The determinism lint rules really fire on workflow code (and only there). */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..');
const bad = `import * as fs from 'node:fs';
import { randomUUID } from 'crypto';
export async function BadWorkflow(): Promise<number> {
  setTimeout(() => undefined, 10);
  void fs;
  void randomUUID;
  return Math.random() + Number(process.env.X);
}
`;

// ESLint in a child process (jest's module sandbox cannot load the ESM eslint.config.mjs), one process for every path:
// the typed parser builds the TypeScript program once, which is most of the time.
const LINT = `const { ESLint } = require('eslint');
const text = require('node:fs').readFileSync(0, 'utf8');
(async () => {
  const eslint = new ESLint();
  const ids = {};
  for (const filePath of process.argv.slice(1)) {
    const [result] = await eslint.lintText(text, { filePath });
    ids[filePath] = result.messages.map((m) => m.ruleId + ':' + m.line);
  }
  process.stdout.write(JSON.stringify(ids));
})();`;

/** The rule:line ids ESLint reports for `bad` saved at each path. */
function ruleIds(...filePaths: string[]): Record<string, string[]> {
  const r = spawnSync(process.execPath, ['-e', LINT, ...filePaths], { cwd: root, input: bad, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`eslint exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, string[]>;
}

let ids: Record<string, string[]>;
beforeAll(() => {
  ids = ruleIds('workflows/smoke.ts', 'activities/smoke.ts');
}, 90_000);

describe('workflow determinism lint', () => {
  it('rejects Node built-ins, timers, Math.random and process in workflows/', () => {
    expect(ids['workflows/smoke.ts']).toEqual(
      expect.arrayContaining([
        'no-restricted-imports:1',
        'no-restricted-imports:2',
        'no-restricted-globals:4',
        'no-restricted-properties:7',
        'no-restricted-globals:7',
      ]),
    );
  });

  it('allows the same code in activities/', () => {
    expect(ids['activities/smoke.ts'].filter((i) => i.startsWith('no-restricted'))).toEqual([]);
  });
});
