#!/usr/bin/env node
// Makes an nkey pair for every app the nats-server authorization file names, once: each app's seed
// goes to <out>/<app>.nk (only that app should be given it), the public keys to <out>/nkeys.env as
// NATS_NKEY_<NAMESPACE>_<APP>=U... lines, which are both shell assignments (for the server's
// environment) and nats-server variable definitions (to put ahead of the authorization block).
// Existing seeds are kept, so running it again changes nothing.
//
//   node deploy/nats/nats-keys.js --namespace vmm --authorization deploy/nats/authorization.conf \
//     --out /secure/place [--owner 1000:1000]
//
// Plain JavaScript with one dependency of the apps' image, so docker-compose runs it in that image.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { nkeys } = require('@nats-io/transport-node');

function argument(name, required = true) {
  const index = process.argv.indexOf(`--${name}`);
  const value = index === -1 ? undefined : process.argv[index + 1];
  if (required && !value) {
    console.error(
      'usage: nats-keys.js --namespace <ns> --authorization <authorization.conf> --out <dir> [--owner uid:gid]',
    );
    process.exit(2);
  }
  return value;
}

const namespace = argument('namespace');
const authorization = fs.readFileSync(argument('authorization'), 'utf8');
const out = argument('out');
const owner = argument('owner', false)?.split(':').map(Number);

const prefix = `NATS_NKEY_${namespace.toUpperCase().replace(/-/g, '_')}_`;
const variables = [...new Set(authorization.match(new RegExp(`\\$${prefix}[A-Z_]+`, 'g')) ?? [])].map((v) =>
  v.slice(1),
);
if (variables.length === 0) {
  console.error(`no ${prefix}* variable in the authorization file: is the namespace right?`);
  process.exit(1);
}

fs.mkdirSync(out, { recursive: true, mode: 0o700 });
const own = (file) => owner && fs.chownSync(file, owner[0], owner[1]);
own(out);

function seedOf(file) {
  if (fs.existsSync(file)) {
    const pair = nkeys.fromSeed(new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim()));
    if (pair.getPublicKey().startsWith('U')) return pair;
    throw new Error(`${file} does not hold an nkey user seed: remove it to make a new one`);
  }
  const pair = nkeys.createUser();
  fs.writeFileSync(file, `${new TextDecoder().decode(pair.getSeed())}\n`, { mode: 0o600 });
  own(file);
  return pair;
}

const lines = variables.map((variable) => {
  const app = variable.slice(prefix.length).toLowerCase().replace(/_/g, '-');
  return `${variable}=${seedOf(path.join(out, `${app}.nk`)).getPublicKey()}`;
});
const env = path.join(out, 'nkeys.env');
fs.writeFileSync(env, `${lines.join('\n')}\n`, { mode: 0o644 });
own(env);
console.log(`nkeys for ${variables.length} apps in ${out}`);
