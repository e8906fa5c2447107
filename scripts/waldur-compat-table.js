// Prints the README's "Waldur compatibility" table from test/fixtures/waldur-openapi/exemptions.json;
// with --write, puts it into README.md between its markers (the conformance test checks they agree).
require('./ts-register.js');
const fs = require('node:fs');
const path = require('node:path');
const {
  compatibilityTable,
  readExemptions,
  README_START,
  README_END,
} = require('../test/support/waldur-exemptions.ts');

const table = compatibilityTable(readExemptions());
if (!process.argv.includes('--write')) {
  console.log(table);
  process.exit(0);
}
const readmePath = path.join(__dirname, '..', 'README.md');
const readme = fs.readFileSync(readmePath, 'utf8');
const start = readme.indexOf(README_START);
const end = readme.indexOf(README_END);
if (start < 0 || end < start) throw new Error(`README.md has no ${README_START} … ${README_END} markers`);
fs.writeFileSync(
  readmePath,
  `${readme.slice(0, start + README_START.length)}\n${table}\n${readme.slice(end)}`,
);
console.log('README.md: Waldur compatibility table written');
