// Three tiers, each its own project: `npm test` runs unit and integration side by side, then e2e
// two files at a time (each e2e suite starts the apps as processes, on a database and NATS
// namespace of its own), then the fault suites one at a time (see scripts/test.sh).
const shared = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  rootDir: '.',
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } }],
  },
  moduleNameMapper: {
    '^@app/(contracts|platform|messaging|vim25)(|/.*)$': '<rootDir>/libs/$1/src$2',
  },
  testEnvironment: 'node',
};

module.exports = {
  // Integration and e2e suites start real services; e2e files raise it further with jest.setTimeout.
  testTimeout: 30_000,
  reporters: ['default', '<rootDir>/test/support/tier-summary-reporter.js'],
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,scripts}/**/*.spec.ts', '<rootDir>/test/support/**/*.spec.ts'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: [
        '<rootDir>/{apps,libs}/**/test/**/*.int-spec.ts',
        '<rootDir>/test/integration/**/*.int-spec.ts',
      ],
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      // Fails a file whose tokens or passwords show up in an app's log or an answer.
      setupFilesAfterEnv: ['<rootDir>/test/support/secret-scan.setup.ts'],
    },
    // Faults: the apps as processes against a nats-server and a Postgres cluster of the suite's own,
    // which it kills and restarts. One file at a time (`npm run test:faults`), but for the two outage
    // files, which `npm test` runs side by side (each mostly a minute of waiting). A failing test
    // prints the last lines of every app process the file started.
    {
      ...shared,
      displayName: 'faults',
      testMatch: ['<rootDir>/test/faults/**/*.fault-spec.ts'],
      testEnvironment: '<rootDir>/test/faults/support/fault-environment.js',
    },
  ],
};
