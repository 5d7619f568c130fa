/** All jest suites are under tests/, in two projects:
 * - `unit`: suites that start no service (no Temporal server, Kafka, PostgreSQL, embedded model server, bubblewrap
 *   sandbox or browser): pure functions, zod configs, reports from fixtures, a stand-in HTTP server, infra/supervise on
 *   `sleep`. The inner loop: `npm run test:unit`, well under a minute.
 * - `integration`: everything else. These talk to the real services that `infra/up` starts (or start a Temporal dev
 *   server of their own), so they run in band (see package.json).
 * - `sandbox`: the slow suites that need bubblewrap and pdb but no service (SANDBOX below).
 * A suite is integration unless it is listed in UNIT or SANDBOX: a new suite that needs no service belongs in UNIT. */
const UNIT = [
  'adapter-names',
  'assignment',
  'bc-replay',
  'bootstrap',
  'chat-client',
  'cli-kit',
  'compare-table',
  'config',
  'config-ports',
  'curriculum',
  'deploy-config',
  'failure-vocabulary',
  'group-size',
  'learner-advantage',
  'learner-schema',
  'metrics',
  'pipeline-input',
  'prompt-prefix',
  'report',
  'reward',
  'run-health',
  'sft-filters',
  'star-keep',
  'supervise',
  'targeted-starts',
  'tasks-stats',
  'token-chain',
  'tool-specs-fixture',
  'training-report',
  'workflow-lint',
  'zero-signal',
];
const unitFiles = UNIT.map((name) => `<rootDir>/tests/${name}.test.ts`);

/** `sandbox`: slow suites that need bubblewrap and pdb but none of the services `infra/up` starts (no Temporal, Kafka,
 * PostgreSQL or model server). `./infra/test` runs them in its background group, beside the restart and chaos checks,
 * which spend most of their time waiting on restarts and kills: on 2026-12-03 they took 341 s and 259 s of the in-band
 * integration run, and the background group had finished about 290 s before those checks. */
const SANDBOX = ['tasks-debugger', 'sft-oracle', 'oracle-no-debugger'];
const sandboxFiles = SANDBOX.map((name) => `<rootDir>/tests/${name}.test.ts`);

// ts-jest compiles each file on its own (isolatedModules), without type-checking it: `tsc -p tsconfig.json`, which
// covers tests/ and runs in infra/setup before any suite, is the type check. Checking types again here cost about
// half of a cold unit run's CPU.
const { compilerOptions } = require('./tsconfig.json');
const shared = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: { ...compilerOptions, isolatedModules: true }, diagnostics: { warnOnly: false } }] },
};

module.exports = {
  testTimeout: 120000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: unitFiles },
    { ...shared, displayName: 'sandbox', testMatch: sandboxFiles },
    { ...shared, displayName: 'integration', testMatch: ['**/*.test.ts'], testPathIgnorePatterns: ['/node_modules/', ...unitFiles, ...sandboxFiles] },
  ],
};
