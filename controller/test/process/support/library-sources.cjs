// Preloaded (`node -r ts-node/register/transpile-only -r <this file>`) so a test can run the
// controller's entry, controller/src/main.ts, as a child process without a build: the library's
// package name resolves to its sources, as jest's moduleNameMapper does in-process.
const Module = require('node:module');
const path = require('node:path');

const root = path.resolve(__dirname, '../../../..');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const match = /^virtual-exporters(?:\/([a-z0-9-]+))?$/.exec(request);
  const target = match ? path.join(root, 'lib', match[1] ?? '', 'index.ts') : request;
  return resolveFilename.call(this, target, ...rest);
};
