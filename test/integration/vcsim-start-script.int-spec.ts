import { spawn, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { readVirtualMachines, VimSession, type VimContext } from '@app/vim25';
import { freePort } from '../support/free-port';
import { createTestTls, type TestTls } from '../support/tls-ca';

const SCRIPT = resolve(__dirname, '../../scripts/vcsim/start.sh');

/** `scripts/vcsim/start.sh` running in the background, with what it printed. */
interface StartedScript {
  /** The script `exec`s vcsim, so this is vcsim's pid. */
  readonly pid: number;
  readonly url: string;
  readonly caPath: string | undefined;
  stop(): Promise<void>;
}

/** Runs start.sh with `args` and waits for vcsim's `GOVC_URL` line. */
async function startScript(args: string[]): Promise<StartedScript> {
  const child = spawn('bash', [SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid ?? 0, 'SIGTERM');
    await exited;
  };
  try {
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no GOVC_URL within 20 s: ${out} ${err}`)), 20_000);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (/GOVC_URL=\S+/.test(out)) {
          clearTimeout(timer);
          done();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        fail(new Error(`start.sh exited with ${code}: ${out} ${err}`));
      });
    });
  } catch (e) {
    await stop();
    throw e;
  }
  const govc = new URL(/GOVC_URL=(\S+)/.exec(out)?.[1] ?? '');
  return {
    pid: child.pid ?? 0,
    url: `https://${govc.hostname}:${govc.port}`,
    caPath: /VCSIM_CA=(\S+)/.exec(out)?.[1],
    stop,
  };
}

/** Logs in to the started vcsim with TLS verified against `caPem` and counts its VMs. */
async function countVms(url: string, caPem: string): Promise<number> {
  const session = new VimSession({ url, caPem, username: 'user', password: 'pass', keepAliveMs: 0 });
  try {
    const ctx: VimContext = {
      caller: session,
      content: await session.serviceContent(),
      serverAddress: session.transport.sdkUrl.host,
    };
    return (await readVirtualMachines(ctx)).length;
  } finally {
    await session.close();
  }
}

// vcsim's default inventory has two resource pools (cluster DC0_C0, host DC0_H0) with
// 2 VMs each; `-vm N` makes it N each, so the VM count proves the flags reached vcsim.
describe('scripts/vcsim/start.sh', () => {
  let tls: TestTls;

  beforeAll(async () => {
    tls = await createTestTls();
  });

  afterAll(async () => {
    await tls.remove();
  });

  it('passes the flags after `--` to vcsim (LISTEN -- FLAGS), with the local CA', async () => {
    const port = await freePort();
    const started = await startScript([`127.0.0.1:${port}`, '--', '-vm', '3']);
    try {
      expect(started.url).toBe(`https://127.0.0.1:${port}`);
      expect(started.caPath).toBeDefined();
      expect(await countVms(started.url, await readFile(started.caPath ?? '', 'utf8'))).toBe(6);
    } finally {
      await started.stop();
    }
  });

  it('takes LISTEN CERT KEY -- FLAGS, and flags right after LISTEN without `--`', async () => {
    const port = await freePort();
    const withCert = await startScript([`127.0.0.1:${port}`, tls.certPath, tls.keyPath, '--', '-vm', '1']);
    try {
      expect(withCert.caPath).toBeUndefined();
      expect(await countVms(withCert.url, tls.caPem)).toBe(2);
    } finally {
      await withCert.stop();
    }
    const bare = await startScript(['127.0.0.1:0', '-vm', '4']);
    try {
      expect(await countVms(bare.url, await readFile(bare.caPath ?? '', 'utf8'))).toBe(8);
    } finally {
      await bare.stop();
    }
  });

  it('refuses a certificate without its key', () => {
    const result = spawnSync('bash', [SCRIPT, '127.0.0.1:0', tls.certPath, '--', '-vm', '1'], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('give both CERT and KEY, or neither');
  });
});
