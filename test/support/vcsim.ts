import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { resolve } from 'node:path';
import { request } from 'node:https';
import { createTestTls, type TestTls } from './tls-ca';

/** Where `npm run vcsim:build` puts the simulator. */
export const VCSIM_BINARY = resolve(__dirname, '../../.cache/vcsim/bin/vcsim');
/** How long vcsim may take to stop by itself before it is killed. */
const STOP_GRACE_MS = 1_000;

/** A running vcsim. */
export interface VcsimInstance {
  /** `https://127.0.0.1:PORT` */
  readonly url: string;
  /** `https://127.0.0.1:PORT/sdk` */
  readonly sdkUrl: string;
  /** PEM of the CA that signed vcsim's certificate (verification stays on). */
  readonly caPem: string;
  /** Server certificate and key (PEM files, signed by `caPem`'s CA; deleted by `stop()`), e.g. for the vcsim front. */
  readonly certPath: string;
  readonly keyPath: string;
  readonly pid: number;
  /** The user/password vcsim enforces, or defaults any non-empty pair passes. */
  readonly username: string;
  readonly password: string;
  /** SIGTERM by pid, wait for exit, delete the certificates. */
  stop(): Promise<void>;
}

export interface StartVcsimOptions {
  /** Extra vcsim flags, e.g. `['-cluster', '2']`. */
  readonly args?: readonly string[];
  /** Enforced on SOAP Login when given (vcsim `-username`/`-password`). */
  readonly username?: string;
  readonly password?: string;
  /** ms to wait for the URL and the first answer; default 20 s. */
  readonly startTimeoutMs?: number;
}

function probe(sdkUrl: string, caPem: string): Promise<boolean> {
  return new Promise((done) => {
    const req = request(`${sdkUrl.replace(/\/sdk$/, '')}/about`, { ca: caPem, timeout: 2000 }, (res) => {
      res.resume();
      done((res.statusCode ?? 0) > 0);
    });
    req.on('error', () => done(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

/**
 * Starts the vcsim binary on `127.0.0.1:0` with a certificate from a throwaway CA, parses the
 * `GOVC_URL` it prints, waits until it answers over TLS, and returns how to reach and stop it.
 * Throws with a hint to run `npm run vcsim:build` when the binary is missing.
 */
export async function startVcsim(options: StartVcsimOptions = {}): Promise<VcsimInstance> {
  try {
    await access(VCSIM_BINARY, constants.X_OK);
  } catch {
    throw new Error(`vcsim is not built (${VCSIM_BINARY} missing): run \`npm run vcsim:build\` first`);
  }
  const tls: TestTls = await createTestTls();
  const args = [
    '-l',
    '127.0.0.1:0',
    '-tlscert',
    tls.certPath,
    '-tlskey',
    tls.keyPath,
    ...(options.args ?? []),
  ];
  if (options.username !== undefined) args.push('-username', options.username);
  if (options.password !== undefined) args.push('-password', options.password);
  const child = spawn(VCSIM_BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(child.pid, 'SIGTERM');
      // vcsim's graceful stop waits for every request it serves, and a WaitForUpdatesEx it holds
      // runs to its maxWaitSeconds (30 s in the apps' default) even once its client has gone: a
      // simulator keeps nothing worth that wait.
      const grace = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(grace);
    }
    await exited;
    await tls.remove();
  };

  try {
    const timeoutMs = options.startTimeoutMs ?? 20_000;
    const port = await new Promise<number>((done, fail) => {
      let out = '';
      const timer = setTimeout(
        () => fail(new Error(`vcsim printed no GOVC_URL within ${timeoutMs} ms: ${stderr}`)),
        timeoutMs,
      );
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /GOVC_URL=(\S+)/.exec(out);
        if (match) {
          clearTimeout(timer);
          done(Number(new URL(match[1]).port));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        fail(new Error(`vcsim exited with ${code} before listening: ${stderr}`));
      });
    });
    const url = `https://127.0.0.1:${port}`;
    const sdkUrl = `${url}/sdk`;
    const deadline = Date.now() + timeoutMs;
    while (!(await probe(sdkUrl, tls.caPem))) {
      if (Date.now() > deadline) throw new Error(`vcsim at ${url} does not answer: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return {
      url,
      sdkUrl,
      caPem: tls.caPem,
      certPath: tls.certPath,
      keyPath: tls.keyPath,
      pid: child.pid ?? 0,
      username: options.username ?? 'user',
      password: options.password ?? 'pass',
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
