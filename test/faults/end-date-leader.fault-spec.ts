import { readVirtualMachines, type VimConnection } from '@app/vim25';
import type { Json } from '../support/api-session';
import { AppProcess } from '../support/app-process';
import type { Named } from '../support/vcsim-offering';
import { eventually, orderVm, type Vm } from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(300_000);

type Order = Json & { uuid: string; type: string; state: string; created_by_username: string | null };

/**
 * The end-date sweeper's leader SIGKILLed at an end date, on vcsim: it dies as it acts on it (it
 * has asked for the running VM to be stopped; whether it also placed the Terminate before dying
 * varies from run to run); the other scheduler instance takes the lease over and the resource is
 * terminated once (one Terminate order, done; the VM gone from vcsim).
 */
describe('the end-date leader killed at an end date', () => {
  let market: VsphereMarketplace;
  let vim: VimConnection;
  let placement: { network: Named; folder: Named };
  let leader: AppProcess;
  let follower: AppProcess;

  beforeAll(async () => {
    market = await VsphereMarketplace.start('enddatekill');
    vim = await market.vim();
    placement = await market.vmPlacement();
  });

  afterAll(async () => {
    await Promise.all([leader, follower].map((scheduler) => scheduler?.stop()));
    await market?.stop();
  });

  const schedulerEnv = () => ({ ...market.env, END_DATE_TICK_MS: '300' });

  /** Whether some session holds the end-date lease of the suite's namespace (the advisory lock). */
  async function leaseHeld(): Promise<boolean> {
    const [row] = await market.api.sql<{ held: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_locks l JOIN pg_database d ON d."oid" = l."database"
         WHERE l."locktype" = 'advisory' AND l."granted" AND d."datname" = current_database()
           AND l."objid" = ((hashtext($1)::bigint) & 4294967295)::oid) AS "held"`,
      [`end-dates:${market.env.NATS_NAMESPACE}`],
    );
    return row.held;
  }

  it('terminates the resource once when the leader dies as it acts on the end date', async () => {
    leader = new AppProcess('sync-scheduler', schedulerEnv());
    await leader.start();
    await eventually(leaseHeld, (held) => held, 30_000, 'the first scheduler leading the end dates');
    follower = new AppProcess('sync-scheduler', schedulerEnv());
    await follower.start();

    const vm: Vm = await orderVm(market, 'e2e-end-date-kill', placement);
    expect(vm.runtime_state).toBe('POWERED_ON');
    const resourcePath = `/api/marketplace-resources/${vm.marketplace_resource_uuid}/`;
    const endDate = new Date(Date.now() + 3_000).toISOString();
    await market.api.ok('member', 'POST', `${resourcePath}set_end_date/`, { end_date: endDate });

    // At the end date the leader asks for the VM to be stopped first: it is killed right then.
    await eventually(
      () =>
        market.api.sql<{ at: Date | null }>(
          `SELECT "end_date_stop_requested_at" AS "at" FROM "marketplace"."resources" WHERE "uuid" = $1`,
          [vm.marketplace_resource_uuid],
        ),
      ([row]) => row.at !== null,
      60_000,
      'the leader acting on the end date',
    );
    await leader.stop('SIGKILL');

    const orders = await eventually(
      () =>
        market.api.ok<Order[]>(
          'member',
          'GET',
          `/api/marketplace-orders/?resource_uuid=${vm.marketplace_resource_uuid}&type=Terminate`,
        ),
      (found) => found.length > 0 && found.every((order) => order.state === 'done'),
      120_000,
      'the Terminate order done after the hand-over',
    );
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ state: 'done', created_by_username: 'system:end-dates' });
    expect(await leaseHeld()).toBe(true); // the follower leads now: the leader's session is gone
    expect(follower.running).toBe(true);
    expect((await readVirtualMachines(vim)).some((info) => info.instanceUuid === vm.uuid)).toBe(false);
    const resource = await market.api.ok<Json>('member', 'GET', resourcePath);
    expect(resource.state).toBe('Terminated');
  });
});
