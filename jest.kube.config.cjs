// `npm run test:kube`: the suites that run against the real Kubernetes binaries (kube/, startKubeCluster).
// Files named *.kube.test.ts run only here; the conformance suite of the test cluster runs here too,
// on the real server (VIRTUAL_EXPORTERS_BACKEND=kube is set by the npm script).
const base = require('./jest.config.cjs');
/** @type {import('jest').Config} */
module.exports = {
  ...base,
  testMatch: ['**/*.kube.test.ts', '**/test-cluster/test/conformance-*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/out/'],
  // One real cluster per file is heavy on 2 cores: files run one after another.
  maxWorkers: 1,
  testTimeout: 120000,
};
