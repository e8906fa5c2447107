import { connectVim, type VimConnection } from '@app/vim25';
import { vmsOfOrder } from '../../apps/vsphere-adapter/test/support/order-fixture';
import type { Json } from '../support/api-session';
import { VsphereMarketplace } from '../support/vsphere-marketplace';
import { until } from './support/wait';

jest.setTimeout(240_000);

type Order = Json & { uuid: string; state: string; error_message: string };
type Resource = Json & { state: string; resource_uuid: string | null };

/**
 * Crashes in the middle of a VM order, on vcsim through the vCenter 8 front: the adapter SIGKILLed
 * while vCenter is deploying, and the order service SIGKILLed after committing an order but before
 * publishing it. Each order still ends done, with exactly one VM in vcsim.
 */
describe('VM orders survive crashes: one order, one VM', () => {
  let market: VsphereMarketplace;
  let vim: VimConnection;
  let template: Json & { uuid: string };

  beforeAll(async () => {
    market = await VsphereMarketplace.start('vmfaults', {
      // A redelivery soon after the adapter comes back; a deploy still held is kept alive by heartbeats.
      adapterEnv: { CONSUMER_ACK_WAIT_MS: '3000' },
    });
    vim = await connectVim({
      url: market.sim.url,
      caPem: market.sim.caPem,
      username: market.sim.username,
      password: market.sim.password,
    });
    template = market.templates[0];
  });

  afterAll(async () => {
    await market?.stop();
  });

  const order = (name: string): Json => ({
    offering: market.offering.uuid,
    project: market.project.uuid,
    plan: market.offering.plans[0].uuid,
    attributes: { name, template: template.uuid },
    limits: { cpu: 1, ram: 1024 },
  });

  async function settled(orderUuid: string): Promise<Order> {
    let current: Order | undefined;
    const ended = await until(async () => {
      current = await market.api.ok<Order>('member', 'GET', `/api/marketplace-orders/${orderUuid}/`);
      return ['done', 'erred'].includes(current.state);
    }, 120_000);
    if (ended === undefined) throw new Error(`order ${orderUuid} still ${current?.state} after 120 s`);
    return current as Order;
  }

  async function vmMade(orderUuid: string): Promise<void> {
    const made = await until(async () => (await vmsOfOrder(vim, orderUuid)).length === 1, 60_000);
    if (made === undefined) throw new Error(`vCenter made no VM for order ${orderUuid}`);
  }

  it('finishes an order whose adapter was SIGKILLed mid-deploy, with exactly one VM', async () => {
    // vCenter makes the VM at once but answers the deploy only later: the adapter dies waiting.
    market.sim.front.delayDeployAnswers(30_000);
    const created = await market.api.ok<Order>(
      'member',
      'POST',
      '/api/marketplace-orders/',
      order('crash-deploy'),
    );
    await vmMade(created.uuid);
    await market.restart('adapter', { signal: 'SIGKILL' });
    market.sim.front.delayDeployAnswers(0);

    const done = await settled(created.uuid);
    expect({ state: done.state, error: done.error_message }).toEqual({ state: 'done', error: '' });
    const vms = await vmsOfOrder(vim, created.uuid);
    expect(vms).toHaveLength(1);
    const resource = await market.api.ok<Resource>(
      'member',
      'GET',
      `/api/marketplace-orders/${created.uuid}/resource/`,
    );
    expect(resource).toMatchObject({ state: 'OK', resource_uuid: vms[0].instanceUuid });
  });

  it('finishes an order whose order service was SIGKILLed between its commit and its publish, with exactly one VM', async () => {
    await market.restart('orderService', { signal: 'SIGTERM', extraEnv: { OUTBOX_RELAY_ENABLED: 'false' } });
    const created = await market.api.ok<Order>(
      'member',
      'POST',
      '/api/marketplace-orders/',
      order('crash-commit'),
    );
    const pending = await market.api.sql<{ subject: string }>(
      `SELECT subject FROM marketplace.outbox WHERE published_at IS NULL AND correlation_id = $1`,
      [created.uuid],
    );
    expect(pending.map((row) => row.subject)).toContain(
      market.nats.topology.subjects.orderSubmitted('VMware.VirtualMachine'),
    );
    expect(await vmsOfOrder(vim, created.uuid)).toHaveLength(0);
    await market.restart('orderService', { signal: 'SIGKILL' });

    const done = await settled(created.uuid);
    expect(done.state).toBe('done');
    expect(await vmsOfOrder(vim, created.uuid)).toHaveLength(1);
  });
});
