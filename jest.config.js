/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  // Generous: a test's time says nothing about its correctness, and CI runners are busy machines (issue 34 item 5).
  // A test that hangs still fails, after five minutes. No test sets a shorter timeout of its own, and the waits inside
  // tests (watch events, env files, server starts) are hang guards of four minutes, not measures of speed.
  testTimeout: 300000,
  // Three workers on two cores: the tests wait on child processes, servers and sleeps (a lease that must age), so a
  // third worker fills those gaps. On a fresh clone, quiet: 615 s with 2 workers (CPU 1074 s), 532 s with 3 (CPU 1027 s).
  maxWorkers: 3,
  // The slowest files start first, also on a fresh clone without jest's timing cache (test/support/slow-first-sequencer.js).
  testSequencer: '<rootDir>/test/support/slow-first-sequencer.js',
  // One temporary directory per run, removed at the end; nothing may be left in the repository root.
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  // The APIs' profiles, registered in each test process as the package's entry registers them.
  setupFiles: ['<rootDir>/test/support/api-profiles.setup.ts'],
};
