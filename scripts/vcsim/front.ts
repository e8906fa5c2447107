// The vcsim front as a process of its own (npm start runs it before vcsim, so the adapter meets
// vCenter 8's `/api`): `node -r ./scripts/ts-register.js scripts/vcsim/front.ts`, from source.
// Prints `VCSIM_FRONT_URL=https://HOST:PORT` once it listens; SIGINT or SIGTERM stops it.
//
// Environment: VCSIM_URL (vcsim's https address, required), VCSIM_USERNAME and VCSIM_PASSWORD (the
// user vcsim enforces; the front logs in with it for the gaps it fills over SOAP), VCSIM_FRONT_LISTEN
// (default 127.0.0.1:8990; port 0 picks a free one), VCSIM_TLS_DIR (vcsim's ca.pem, server.pem and
// server.key, which the front serves too; default .cache/vcsim/tls, where scripts/vcsim/start.sh makes them).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startVcsimFront, type VcsimEndpoint } from '../../test/support/vcsim-front';
import { hostPort, required } from './env';

const ROOT = resolve(__dirname, '..', '..');

function endpointFromEnv(): VcsimEndpoint {
  const tls = process.env.VCSIM_TLS_DIR || join(ROOT, '.cache', 'vcsim', 'tls');
  return {
    url: new URL(required('VCSIM_URL')).origin,
    caPem: readFileSync(join(tls, 'ca.pem'), 'utf8'),
    certPath: join(tls, 'server.pem'),
    keyPath: join(tls, 'server.key'),
    username: required('VCSIM_USERNAME'),
    password: required('VCSIM_PASSWORD'),
  };
}

async function main(): Promise<void> {
  const vcsim = endpointFromEnv();
  const listen = hostPort('VCSIM_FRONT_LISTEN', '127.0.0.1:8990');
  const front = await startVcsimFront({ vcsim, listen });
  process.stdout.write(`VCSIM_FRONT_URL=${front.url}\n`);
  process.stderr.write(
    `[vcsim-front] vCenter 8's /api and /sdk on ${front.url}, before vcsim at ${vcsim.url}\n`,
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    front.stop().then(
      () => process.exit(signal === 'SIGINT' ? 130 : 0),
      (error: unknown) => {
        process.stderr.write(`[vcsim-front] stopping failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`[vcsim-front] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
