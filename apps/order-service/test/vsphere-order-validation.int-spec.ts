import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { VSPHERE_ORDER_VALIDATION, type VsphereOrderValidationRequest } from '@app/contracts';
import { NamespacedNatsClient, requestSubject } from '@app/messaging/requests/namespaced-nats';
import { DEADLINE_PASSED, STORE_RESERVE_MS } from '@app/messaging';
import { VsphereOrderValidationClient } from '../src/marketplace/adapters/vsphere-order-validation.client';
import { testEnv, uniqueToken } from '../../../test/support/test-env';

const REQUEST: VsphereOrderValidationRequest = {
  offering_uuid: '5b1f3a3e-8d8e-4a57-9a37-6f8f4d0b9c11',
  customer_uuid: '0d3c1c2a-7e55-4a1b-8f2e-2b9d8f3e4a10',
  type: 'Create',
  attributes: { template: 'ubuntu', networks: ['lan'] },
  limits: { cpu: 2, ram: 2048 },
  vm_uuid: null,
};

/**
 * The order service's client of `vsphere.orders.validate` against a real NATS server, with a small
 * responder standing in for the vSphere adapter on the suite's own namespace.
 */
describe('the vSphere order validation client over NATS', () => {
  const namespace = uniqueToken('ovalid-').slice(0, 30);
  let responder: NatsConnection;
  let client: NamespacedNatsClient;
  let subscription: Subscription | undefined;
  const seen: unknown[] = [];

  /** Answers every validation request with `reply` (Nest's reply packet), or never when `reply` is undefined. */
  function answerWith(reply: unknown): void {
    subscription?.unsubscribe();
    subscription = responder.subscribe(requestSubject(namespace, VSPHERE_ORDER_VALIDATION), {
      callback: (_error, message) => {
        const packet = message.json<{ id: string; data: unknown }>();
        seen.push(packet.data);
        if (reply !== undefined)
          message.respond(JSON.stringify({ id: packet.id, response: reply, isDisposed: true }));
      },
    });
  }

  beforeAll(async () => {
    responder = await connect({ servers: testEnv.natsUrl });
    client = new NamespacedNatsClient({ servers: [testEnv.natsUrl] }, namespace);
    await client.connect();
  });

  afterAll(async () => {
    subscription?.unsubscribe();
    await client?.close();
    await responder?.close();
  });

  // A test that expects an answer waits for it as long as a busy machine takes (a 500 ms wait made
  // a slow round trip a 503); only the test of an adapter that never answers uses the short wait.
  const validation = (timeoutMs = 20_000) => new VsphereOrderValidationClient(client, timeoutMs);

  it('sends the order as the contract defines it and takes the normalised attributes and limits', async () => {
    const normalised = {
      attributes: { template: 'tpl-7', networks: ['net-1'], folder: 'f-1' },
      limits: { cpu: 2, ram: 2048, disk: 10240 },
    };
    answerWith({ status: 'ok', data: normalised });
    await responder.flush();
    expect(await validation().validate(REQUEST)).toEqual({ status: 'ok', data: normalised });
    expect(seen.at(-1)).toEqual(REQUEST);
  });

  it("passes the adapter's 400 fields and 409 reason through", async () => {
    const fields = { networks: ['This network is not available for this customer.'] };
    answerWith({ status: 'error', code: 400, fields });
    await responder.flush();
    expect(await validation().validate(REQUEST)).toEqual({ status: 'error', code: 400, fields });
    answerWith({ status: 'error', code: 409, detail: 'The VM must be powered off.' });
    await responder.flush();
    expect(await validation().validate({ ...REQUEST, type: 'Update', vm_uuid: 'vm-uuid' })).toEqual({
      status: 'error',
      code: 409,
      detail: 'The VM must be powered off.',
    });
  });

  it('answers 503 when no adapter listens, and when the adapter does not answer in time', async () => {
    subscription?.unsubscribe();
    subscription = undefined;
    await responder.flush();
    const unavailable = {
      status: 'error',
      code: 503,
      detail: 'The vsphere-adapter service is not available; try again shortly.',
    };
    expect(await validation().validate(REQUEST)).toEqual(unavailable);
    answerWith(undefined);
    await responder.flush();
    const started = Date.now();
    expect(await validation(500).validate(REQUEST)).toEqual(unavailable);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });

  it("waits for the adapter no longer than the gateway's deadline leaves, with the order's store kept out", async () => {
    answerWith(undefined);
    await responder.flush();
    const passed = { status: 'error', code: 503, detail: DEADLINE_PASSED };
    // Its own wait is 20 s; the deadline leaves 700 ms, of which the store's reserve is not waited.
    const started = Date.now();
    expect(await validation().validate(REQUEST, started + 700)).toEqual(passed);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(700 - STORE_RESERVE_MS - 50);
    expect(waited).toBeLessThan(5_000);

    // No time left: the adapter is not asked at all.
    const asked = seen.length;
    expect(await validation().validate(REQUEST, Date.now() + STORE_RESERVE_MS - 1)).toEqual(passed);
    expect(seen).toHaveLength(asked);
  });

  it('answers within the deadline when the adapter does', async () => {
    answerWith({ status: 'ok', data: { attributes: {}, limits: {} } });
    await responder.flush();
    expect(await validation().validate(REQUEST, Date.now() + 15_000)).toEqual({
      status: 'ok',
      data: { attributes: {}, limits: {} },
    });
  });
});
