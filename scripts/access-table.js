// npm run access:table: writes docs/access-policy.md from the route access declaration in
// libs/contracts (see scripts/access/render-access-table.ts), run from source.
require('./ts-register');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { renderAccessTable } = require('./access/render-access-table.ts');
writeFileSync(join(__dirname, '..', 'docs', 'access-policy.md'), renderAccessTable());
