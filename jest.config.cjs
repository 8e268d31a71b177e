// Jest runs in ESM mode (TOOLCHAIN.md): @kubernetes/client-node 1.x is ESM-only and the controller
// tests import it, so the whole suite uses one mode.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  roots: [
    '<rootDir>/test',
    '<rootDir>/test-cluster',
    '<rootDir>/controller',
    '<rootDir>/tools',
    '<rootDir>/jsii',
  ],
  testMatch: ['**/*.test.ts'],
  // *.kube.test.ts need the real binaries: `npm run test:kube` (jest.kube.config.cjs).
  testPathIgnorePatterns: ['/node_modules/', '/out/', '\\.kube\\.test\\.ts$'],
  // jsii/: the jsii build's output, the wheel and the Python test venv are not sources.
  modulePathIgnorePatterns: ['<rootDir>/jsii/(lib|dist|\\.venv|\\.work)/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.json', diagnostics: false }],
  },
  // Tests run against the sources, so `npm test` needs no build.
  moduleNameMapper: {
    '^virtual-exporters$': '<rootDir>/lib/index.ts',
    '^virtual-exporters/(.*)$': '<rootDir>/lib/$1/index.ts',
    '^virtual-exporters-test-cluster$': '<rootDir>/test-cluster/src/index.ts',
    '^virtual-exporters-controller/internal$': '<rootDir>/controller/src/internal.ts',
  },
  // CI machines have 2 cores; jest's default (cores - 1) would run the suite on a single worker.
  maxWorkers: '100%',
  // Each test file loads the controller, client-node and the test cluster into a fresh ESM context,
  // and a worker keeps what its files loaded (over 600 MB after half of controller/test). Tearing
  // that down when the run ends took a worker 0.5–0.6 s on a loaded machine, past the 0.5 s Jest
  // allows, hence "A worker process has failed to exit gracefully" with no handle left open. A
  // worker over this limit after a file is replaced, so the last ones exit in about 0.1–0.3 s.
  workerIdleMemoryLimit: '400MB',
  testTimeout: 60000,
};
