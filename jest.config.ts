import type { Config } from 'jest';

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

/** Workspace packages resolve to their TypeScript sources, so tests never run stale builds. */
const moduleNameMapper = {
  '^@rcs/([a-z-]+)/testing$': '<rootDir>/packages/$1/testing/index.ts',
  '^@rcs/([a-z-]+)$': '<rootDir>/packages/$1/src/index.ts',
};

const config: Config = {
  projects: [
    {
      displayName: 'packages',
      testEnvironment: 'node',
      transform: { '^.+\\.ts$': swc as never },
      moduleNameMapper,
      testMatch: ['<rootDir>/packages/*/{src,test,testing}/**/*.test.ts'],
    },
    {
      // No mapper: the examples import @rcs/domain as an embedding team does, through its package.json exports
      // to the built dist, which `npm test` builds first.
      displayName: 'examples',
      testEnvironment: 'node',
      transform: { '^.+\\.ts$': swc as never },
      testMatch: ['<rootDir>/examples/*/test/**/*.test.ts'],
    },
  ],
  // Gives every run a database: a fresh one on DATABASE_URL's server, else embedded PGlite (see the file).
  globalSetup: '<rootDir>/packages/adapters-postgres/testing/jest-global-setup.ts',
  globalTeardown: '<rootDir>/packages/adapters-postgres/testing/jest-global-teardown.ts',
  // Ends the run with what it skipped and why (itOnRealServer); jest loads reporters uncompiled, so from the build.
  reporters: ['default', '<rootDir>/packages/adapters-postgres/dist/testing/skipped-tests-reporter.js'],
  // PGlite is a single backend session: every connection shares one search_path, so test files (each in its own
  // schema) must not run side by side there. A real server runs two at a time, one per core.
  maxWorkers: process.env.DATABASE_URL ? 2 : 1,
  testTimeout: 30_000,
};

export default config;
