// npm start: gives the demo's staff user a password a person can sign in to the portal with, the
// first time only, and prints it that once (stdout); later starts say where it was printed. The
// marker file holds when it was set, never the password: delete it for a new one at the next start.
//   node -r ./scripts/ts-register.js scripts/demo/demo-sign-in.ts
// Environment: GATEWAY_URL, DEMO_API_TOKEN (the staff user's token), DEMO_USERNAME,
// DEMO_PASSWORD_MARKER (the marker file).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { required } from '../vcsim/env';
import { newDemoPassword } from './demo-password';
import { GatewayClient } from './gateway-client';

const log = (message: string): void => void process.stderr.write(`[demo] ${message}\n`);

async function main(): Promise<void> {
  const base = required('GATEWAY_URL').replace(/\/+$/, '');
  const username = required('DEMO_USERNAME');
  const marker = required('DEMO_PASSWORD_MARKER');
  if (existsSync(marker)) {
    log(
      `sign in at ${base}/ as ${username} with the password printed at the start that set it ` +
        `(delete ${marker} for a new one at the next start)`,
    );
    return;
  }
  const api = new GatewayClient(base, required('DEMO_API_TOKEN'));
  const me = (await api.call('GET', '/api/users/me/')).body as { uuid?: string };
  if (typeof me.uuid !== 'string') throw new Error('the demo token names no user');
  const password = newDemoPassword();
  const changed = await api.call('POST', `/api/users/${me.uuid}/change_password/`, {
    new_password: password,
  });
  if (changed.status !== 200) throw new Error(`setting the password answered ${changed.status}`);
  mkdirSync(dirname(marker), { recursive: true });
  writeFileSync(marker, `${new Date().toISOString()}\n`, { mode: 0o600 });
  log(`sign in at ${base}/ as ${username}; its password is the next line, printed this once:`);
  process.stdout.write(`${password}\n`);
}

main().catch((error: unknown) => {
  log(`no demo password set: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
