// Workflow code must be deterministic: it is replayed from history, so it may not touch the clock, randomness, the
// file system or the network except through Temporal's APIs. These rules make the common mistakes lint errors; the
// replay tests in tests/replay.test.ts catch the rest.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default tseslint.config(
  { ignores: ['lib/**', 'node_modules/**', 'native/**', '.venv/**', '.data/**', 'tasks/**/workspace/**', 'workers/cli-package/**', '*.config.js', 'eslint.config.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflows are replayed deterministically: no Node built-ins.' })),
          patterns: [
            { group: ['../activities/*', '../activities'], allowTypeImports: true, message: 'Workflows import only the types of activities.' },
            { group: ['kafkajs', 'pg', '@temporalio/client', '@temporalio/worker', '@temporalio/activity'], message: 'Side-effecting packages belong in activities/.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'setInterval', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'process', message: 'Workflows may not read the environment; pass it in the input.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Randomness must come from the workflow input or an activity.' },
      ],
    },
  },
);
