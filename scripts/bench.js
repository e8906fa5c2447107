// npm run bench -- <name>: runs bench/<name>.bench.ts from source. A bench prints what it likes and,
// as its last line, one JSON object with its figures.
const path = require('node:path');
const fs = require('node:fs');

const name = process.argv[2];
const benchDir = path.join(__dirname, '..', 'bench');
const available = fs.existsSync(benchDir)
  ? fs
      .readdirSync(benchDir)
      .filter((f) => f.endsWith('.bench.ts'))
      .map((f) => f.replace(/\.bench\.ts$/, ''))
  : [];
if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <name>; available: ${available.join(', ') || '(none)'}`);
  process.exit(2);
}
if (!process.version.startsWith('v24.')) {
  console.error(
    `benchmarks run on Node 24 (node_modules/.bin/node), not ${process.version}: use npm run bench`,
  );
  process.exit(2);
}
require('./ts-register');
require(path.join(benchDir, `${name}.bench.ts`));
