import { writeFileSync } from 'node:fs';
import { topology } from '@app/contracts';
import { renderAuthorization } from './render-authorization';

/**
 * `npm run nats:config -- --namespace vmm [--out file]`: the nats-server authorization block for
 * one NATS namespace, from the permission table (stdout unless `--out`).
 */
function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

const text = renderAuthorization(topology(option('namespace') ?? 'vmm'));
const out = option('out');
if (out) writeFileSync(out, text);
else process.stdout.write(text);
