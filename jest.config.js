// Two projects: fast unit tests (in-memory, no cluster) and integration/e2e tests that run
// against the real local control plane from hack/ (brought up once by the global setup).
const common = {
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }],
  },
  testEnvironment: 'node',
  // The local control plane's run directory (etcd data, logs) is not source.
  modulePathIgnorePatterns: ['<rootDir>/.local-cluster/', '<rootDir>/dist/'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/.local-cluster/', '<rootDir>/dist/'],
};

// The chaos test (test/chaos) restarts kube-apiserver and takes minutes: it only runs through
// `npm run test:chaos` (DCCTL_CHAOS=1), never as part of `npm test`.
const chaos = process.env.DCCTL_CHAOS === '1'
  ? [{
      ...common,
      displayName: 'chaos',
      testMatch: ['<rootDir>/test/chaos/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.js',
      globalTeardown: '<rootDir>/test/support/global-teardown.js',
    }]
  : [];

export default {
  // Integration tests talk to a real API server; unit tests finish far sooner than this.
  testTimeout: 180000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts', '<rootDir>/test/e2e/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.js',
      globalTeardown: '<rootDir>/test/support/global-teardown.js',
    },
    ...chaos,
  ],
};
