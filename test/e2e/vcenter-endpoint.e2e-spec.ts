import { randomBytes } from 'node:crypto';
import {
  startRecordingServer,
  type RecordingServer,
} from '../../apps/vsphere-adapter/test/support/recording-server';
import { ApiSession, type Json } from '../support/api-session';
import { AppProcess } from '../support/app-process';
import { freePort } from '../support/free-port';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { testEnv } from '../support/test-env';
import { createTestNats, type TestNats } from '../support/test-nats';
import { eventually } from '../support/virtual-machines';

jest.setTimeout(180_000);

const SECRET = 'SECRET-FROM-INSIDE-abc123';

type Integration = Json & {
  state: string;
  error_message: string;
  sync_state: string;
  last_sync_finished: string | null;
};

/**
 * Issue 20's SSRF as it was found, through the public API: an organisation owner creates a VMware
 * offering and names an internal HTTPS service as its vCenter. By default the adapter refuses the
 * address; where the operator allows it, the owner still never reads that service's answer back.
 */
describe('an offering owner cannot aim the adapter at an internal address', () => {
  let db: TestDatabase;
  let nats: TestNats;
  let inside: RecordingServer;
  let apps: AppProcess[];
  let adapter: AppProcess;
  let api: ApiSession;
  let env: Record<string, string>;
  let offering: Json & { uuid: string };
  const adapterEnv = (networks: string) => ({
    ...env,
    CREDENTIALS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    VSPHERE_SYNC_SWEEP_MS: '500',
    OUTBOX_SWEEP_MS: '500',
    VCENTER_ALLOWED_NETWORKS: networks,
  });

  beforeAll(async () => {
    inside = await startRecordingServer({ status: 403, body: JSON.stringify({ internal: SECRET }) });
    db = await createTestDatabase('vcenterendpoint');
    nats = await createTestNats('vcenterendpoint');
    const port = await freePort();
    env = { DATABASE_URL: db.url, NATS_URL: testEnv.natsUrl, NATS_NAMESPACE: nats.topology.namespace };
    adapter = new AppProcess('vsphere-adapter', adapterEnv('')); // the default: nothing internal
    apps = [
      new AppProcess('order-service', env),
      new AppProcess('gateway', { ...env, GATEWAY_PORT: String(port) }),
    ];
    await Promise.all([apps[0].start(), adapter.start(), apps[1].start('gateway listening')]);
    api = new ApiSession(`http://127.0.0.1:${port}`, db.url);
    await api.bootstrapStaff('staff', env);
    await api.user('owner', 'staff');
    const customer = (await api.ok('staff', 'POST', '/api/customers/', { name: 'Any Organisation' })).uuid;
    await api.ok('staff', 'POST', `/api/customers/${String(customer)}/add_user/`, {
      user: api.users.owner,
      role: 'CUSTOMER.OWNER',
    });
    offering = await api.ok('owner', 'POST', '/api/marketplace-provider-offerings/', {
      name: 'Inside',
      type: 'VMware.VirtualMachine',
      customer,
    });
  });

  afterAll(async () => {
    await Promise.all([...(apps ?? []), adapter].map((app) => app?.stop()));
    await inside?.stop();
    await nats?.close();
    await db?.drop();
  });

  const update = (attributes: Json) =>
    api.call('owner', 'POST', `/api/marketplace-provider-offerings/${offering.uuid}/update_integration/`, {
      service_attributes: attributes,
    });

  it('answers 400 naming backend_url and the rule for 127.0.0.1 and a private address', async () => {
    for (const [url, rule] of [
      [inside.url, 'loopback'],
      ['https://10.1.2.3:443', 'private (RFC 1918)'],
    ]) {
      const answer = await update({ backend_url: url, username: 'svc', password: 'pw' });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        'service_attributes.backend_url': [
          `This address may not be used for vCenter: it is a ${rule} address, which the operator has not allowed (VCENTER_ALLOWED_NETWORKS).`,
        ],
      });
    }
    expect(inside.requests).toEqual([]);
  });

  it('never shows the owner what an allowed internal service answered', async () => {
    await adapter.stop();
    adapter = new AppProcess('vsphere-adapter', adapterEnv('127.0.0.1/32'));
    await adapter.start();
    const asked = Date.now();
    const saved = await update({
      backend_url: inside.url,
      username: 'svc',
      password: 'pw',
      ca_pem: inside.caPem,
    });
    expect(saved.status).toBe(200);
    // The synchronisation this save started has ended (not one that ended before it was asked).
    const integration = await eventually(
      () =>
        api.ok<Integration>(
          'owner',
          'GET',
          `/api/marketplace-provider-offerings/${offering.uuid}/integration/`,
        ),
      (seen) => seen.sync_state === 'IDLE' && (Date.parse(seen.last_sync_finished ?? '') || 0) >= asked - 50,
      30_000,
      'the synchronisation after the save',
    );
    expect(inside.requests.length).toBeGreaterThan(0); // it was reached, and answered its secret
    expect(integration).toMatchObject({
      state: 'ERRED',
      error_message: 'The address did not answer as a vCenter does (HTTP 403). Is backend_url a vCenter?',
    });
    expect(api.transcript.filter((text) => text.includes(SECRET))).toEqual([]);
  });
});
