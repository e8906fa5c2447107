import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { firstValueFrom, timeout } from 'rxjs';
import { natsConnectionOptions } from '@app/messaging/nats/nats-options';
import { waitForNats } from '@app/messaging/nats/wait-for-nats';
import { NamespacedNatsClient } from '@app/messaging/requests/namespaced-nats';
import { captureLogger } from '../support/capture-logger';
import { appConfigSchema, loadConfig } from '@app/platform';
import { startAuthNats, type AuthNats } from '../support/auth-nats';
import { NatsServerProcess } from '../support/nats-server-process';
import { uniqueToken } from '../support/test-env';
import { createTestTls, type TestTls } from '../support/tls-ca';

const ROOT = join(__dirname, '..', '..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const run = promisify(execFile);
const config = (env: Record<string, string>) => loadConfig(appConfigSchema({}), env);

describe('NATS connections built by natsConnectionOptions', () => {
  describe('against a server with the project’s authorization and TLS', () => {
    const namespace = uniqueToken('conn-');
    let tls: TestTls;
    let nats: AuthNats;

    beforeAll(async () => {
      tls = await createTestTls();
      nats = await startAuthNats(
        namespace,
        `tls { cert_file: "${tls.certPath}", key_file: "${tls.keyPath}" }`,
      );
    });
    afterAll(async () => {
      await nats?.destroy();
      await tls?.remove();
    });

    it('connects with the app’s nkey over TLS verified against the configured CA', async () => {
      const nc = await connect(
        natsConnectionOptions(
          config({
            NATS_URL: nats.server.url,
            NATS_NAMESPACE: namespace,
            NATS_NKEY_SEED_FILE: nats.seedFile('gateway'),
            NATS_TLS_CA_FILE: tls.caCertPath,
          }),
          'gateway',
        ),
      );
      expect(nc.info?.tls_required).toBe(true);
      await nc.flush();
      await nc.close();
    });

    it('is refused without the CA (the certificate is not trusted) and without credentials', async () => {
      const noCa = config({ NATS_URL: nats.server.url, NATS_NKEY_SEED_FILE: nats.seedFile('gateway') });
      await expect(
        connect({ ...natsConnectionOptions(noCa, 'gateway'), reconnect: false }),
      ).rejects.toThrow();
      const noKey = config({ NATS_URL: nats.server.url, NATS_TLS_CA_FILE: tls.caCertPath });
      await expect(connect({ ...natsConnectionOptions(noKey, 'gateway'), reconnect: false })).rejects.toThrow(
        /Authorization Violation/,
      );
    });
  });

  describe('through an outage longer than nats.js’s default of 10 reconnect attempts', () => {
    const server = new NatsServerProcess();
    let responder: NatsConnection | undefined;
    let client: NamespacedNatsClient | undefined;

    afterAll(async () => {
      await client?.close();
      await responder?.close();
      await server.destroy();
    });

    it('the Nest request client (the gateway’s) comes back and answers once the server returns', async () => {
      await server.start();
      const appConfig = config({
        NATS_URL: server.url,
        NATS_NAMESPACE: 'outage',
        NATS_RECONNECT_WAIT_MS: '100',
        NATS_RECONNECT_JITTER_MS: '1',
      });
      responder = await connect(natsConnectionOptions(appConfig, 'order-service'));
      responder.subscribe('outage.requests.marketplace.ping', {
        // Nest's reply packet, as the services' NamespacedNatsServer sends it.
        callback: (_error, message) => {
          const { id } = message.json<{ id: string }>();
          message.respond(JSON.stringify({ id, response: 'pong', isDisposed: true }));
        },
      });
      client = new NamespacedNatsClient(natsConnectionOptions(appConfig, 'gateway'), 'outage');
      await client.connect();
      const ask = () => firstValueFrom(client!.send<string>('marketplace.ping', {}).pipe(timeout(2_000)));
      expect(await ask()).toBe('pong');

      await server.stop();
      // 100 ms apart: well past 10 attempts in 4 s.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      await server.start();

      const deadline = Date.now() + 10_000;
      let answer: string | undefined;
      while (answer === undefined && Date.now() < deadline) {
        answer = await ask().catch(() => undefined);
        // A refused request fails in a microtask: give the event loop its turn to reconnect.
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(answer).toBe('pong');
      expect(client.unwrap<NatsConnection>().isClosed()).toBe(false);
    });
  });

  describe('the deployment configuration in deploy/nats', () => {
    it('does not let nats-server start without the apps’ public keys, and starts with them', async () => {
      const conf = join(ROOT, 'deploy', 'nats', 'nats-server.conf');
      const withoutKeys = run('/usr/sbin/nats-server', ['-c', conf, '-t'], {
        env: { PATH: process.env.PATH },
      });
      await expect(withoutKeys).rejects.toThrow(/NATS_NKEY_VMM_ORDER_SERVICE/);

      const keys = join(mkdtempSync(join(tmpdir(), 'deploy-keys-')), 'keys');
      await run(NODE, [
        join(ROOT, 'deploy', 'nats', 'nats-keys.js'),
        '--namespace',
        'vmm',
        '--authorization',
        join(ROOT, 'deploy', 'nats', 'authorization.conf'),
        '--out',
        keys,
      ]);
      const env = Object.fromEntries(
        readFileSync(join(keys, 'nkeys.env'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => line.split('=') as [string, string]),
      );
      const { stderr } = await run('/usr/sbin/nats-server', ['-c', conf, '-t'], {
        env: { PATH: process.env.PATH, ...env },
      });
      expect(stderr).toMatch(/is valid/);
    });
  });

  it('lets an app wait for a NATS that is not there yet at start, instead of failing', async () => {
    const server = new NatsServerProcess();
    await server.start();
    const url = server.url;
    await server.stop();
    try {
      const options = natsConnectionOptions(config({ NATS_URL: url }), 'gateway');
      const connecting = waitForNats(options, captureLogger('test').logger, 200);
      let settled = false;
      void connecting.then(
        () => (settled = true),
        () => (settled = true),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(settled).toBe(false);
      await server.start();
      await connecting;
    } finally {
      await server.destroy();
    }
  });

  it('fails at once, without waiting, when NATS refuses the credentials', async () => {
    const server = new NatsServerProcess({ config: 'authorization { user: "app", password: "right" }' });
    await server.start();
    try {
      const options = natsConnectionOptions(
        config({ NATS_URL: server.url, NATS_USER: 'app', NATS_PASSWORD: 'wrong' }),
        'gateway',
      );
      const started = Date.now();
      await expect(waitForNats(options, captureLogger('test').logger)).rejects.toThrow(/Authorization/i);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await server.destroy();
    }
  });
});
