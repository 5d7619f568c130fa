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

// The ESLint CLI in a child process: jest's module sandbox cannot load the ESM eslint.config.mjs.
async function ruleIds(filePath: string): Promise<string[]> {
  const r = spawnSync(path.join(root, 'node_modules/.bin/eslint'), ['--format', 'json', '--stdin', '--stdin-filename', filePath], {
    cwd: root,
    input: bad,
    encoding: 'utf8',
  });
  const [result] = JSON.parse(r.stdout) as { messages: { ruleId: string; line: number }[] }[];
  return result.messages.map((m) => `${m.ruleId}:${m.line}`);
}

describe('workflow determinism lint', () => {
  it('rejects Node built-ins, timers, Math.random and process in workflows/', async () => {
    const ids = await ruleIds('workflows/smoke.ts');
    expect(ids).toEqual(
      expect.arrayContaining([
        'no-restricted-imports:1',
        'no-restricted-imports:2',
        'no-restricted-globals:4',
        'no-restricted-properties:7',
        'no-restricted-globals:7',
      ]),
    );
  }, 60_000);

  it('allows the same code in activities/', async () => {
    const ids = await ruleIds('activities/smoke.ts');
    expect(ids.filter((i) => i.startsWith('no-restricted'))).toEqual([]);
  }, 60_000);
});
