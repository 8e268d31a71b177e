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
  testTimeout: 60000,
};
