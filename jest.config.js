/** Unit tests live next to nothing: all jest suites are under tests/. Integration suites talk to the real services
 * that `infra/up` starts; they are slow, so they run in band (see package.json). */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  testTimeout: 120000,
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }] },
};
