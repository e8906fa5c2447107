#!/usr/bin/env node
// `waldur-cli`, built by `npm run build` into dist/. Node 24 is the project's (node_modules/.bin/node,
// first on PATH under npx and npm scripts); an older node is told so instead of failing obscurely.
'use strict';
const major = Number(process.versions.node.split('.')[0]);
if (major < 20) {
  process.stderr.write(
    `waldur-cli needs Node 20 or later (this is ${process.version}); run it with npx waldur-cli\n`,
  );
  process.exit(1);
}
const { enableCompileCache } = require('node:module');
// Start-up: compiled code is cached between runs (`waldur-cli --help` under 250 ms).
if (enableCompileCache) enableCompileCache();
require('../dist/apps/cli/apps/cli/src/main.js');
