// npm run nats:config -- --namespace <ns> [--out <file>]: the nats-server authorization generated
// from the permission table in libs/contracts (see scripts/nats/nats-config.ts), run from source.
require('./ts-register');
require('./nats/nats-config.ts');
