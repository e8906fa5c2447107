import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A throwaway CA and a server certificate for 127.0.0.1/localhost signed by it. */
export interface TestTls {
  readonly dir: string;
  readonly caCertPath: string;
  readonly certPath: string;
  readonly keyPath: string;
  readonly caPem: string;
  /** Deletes the temp dir. */
  remove(): Promise<void>;
}

async function openssl(args: string[], cwd: string): Promise<void> {
  try {
    await run('openssl', args, { cwd, timeout: 30_000 });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? '';
    throw new Error(`openssl ${args[0]} failed: ${stderr || String(err)}`, { cause: err });
  }
}

/**
 * Generates, with the `openssl` CLI, a CA (2 days) and a server certificate with
 * SAN IP:127.0.0.1, DNS:localhost into a new temp dir. Takes ~100 ms (EC P-256 keys).
 */
export async function createTestTls(): Promise<TestTls> {
  const dir = await mkdtemp(join(tmpdir(), 'vim25-tls-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await openssl(
    [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=vim25 test CA',
    ],
    dir,
  );
  await openssl(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost'], dir);
  await writeFile(
    join(dir, 'server.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n',
  );
  await openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '2',
      '-extfile',
      'server.ext',
    ],
    dir,
  );
  return {
    dir,
    caCertPath: join(dir, 'ca.pem'),
    certPath: join(dir, 'server.pem'),
    keyPath: join(dir, 'server.key'),
    caPem: await readFile(join(dir, 'ca.pem'), 'utf8'),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
