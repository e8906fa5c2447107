import type { Json } from '../support/api-session';
import { SseClient } from '../support/sse-client';
import { orderVm, type Vm } from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(300_000);

type Named = Json & { uuid: string; name: string };
type Scoped = { uuid?: string; project_uuid?: string | null; resource_uuid?: string | null };

/**
 * Issue 20's cross-project finding through the whole system (gateway, order service, adapter,
 * vcsim): the organisation `Demo`-like customer has two projects; its owner orders a VM in P1.
 * A PROJECT.MEMBER of P2 alone must not find it over REST (the gateway forwards the token, the
 * adapter asks the order service who it is) nor receive anything of it, its order or its resource
 * over SSE, live or replayed with Last-Event-ID; a P1 member reads it and may not act on it.
 */
describe('one project’s VM, order and resource stay in that project: REST and SSE', () => {
  let market: VsphereMarketplace;
  let vm: Vm;
  let p2: Named;
  let p1Stream: SseClient;
  let p2Stream: SseClient;
  let firstSeq: number;

  const base = () => market.api.base;
  const vmPath = (suffix = '') => `/api/vmware-virtual-machine/${vm.uuid}/${suffix}`;
  /** Everything of P1 a stream carried: its order and resource events, and the VM's. */
  const ofP1 = (stream: SseClient) =>
    stream.messages.filter((message) => {
      if (!['OrderStateChanged', 'ResourceStateChanged', 'VmChanged'].includes(message.event)) return false;
      const data = JSON.parse(message.data) as Scoped;
      return data.project_uuid === market.project.uuid || data.uuid === vm?.uuid;
    });
  /** A change every signed-in user sees (an Active offering's), made after everything of P1. */
  const marker = async (text: string) => {
    await market.api.ok('staff', 'PATCH', `/api/marketplace-provider-offerings/${market.offering.uuid}/`, {
      description: text,
    });
    return (stream: SseClient) =>
      stream.waitFor(
        (client) =>
          client.data<{ description?: string }>('OfferingChanged').some((o) => o.description === text),
        30_000,
        `the marker ${text}`,
      );
  };

  beforeAll(async () => {
    market = await VsphereMarketplace.start('vmprojectaccess');
    const placement = await market.vmPlacement();
    p2 = await market.api.ok<Named>('staff', 'POST', '/api/projects/', {
      name: 'Second project',
      customer: `${market.api.base}/api/customers/${market.customer.uuid}/`,
    });
    for (const [name, project] of [
      ['p2-member', p2.uuid],
      ['p1-member', market.project.uuid],
    ] as const) {
      await market.api.user(name, 'staff');
      await market.api.ok('staff', 'POST', `/api/projects/${project}/add_user/`, {
        user: market.api.users[name],
        role: 'PROJECT.MEMBER',
      });
    }
    const open = (who: string) => SseClient.open(`${base()}/api/events`, { token: market.api.tokens[who] });
    p1Stream = await open('p1-member');
    p2Stream = await open('p2-member');
    expect([p1Stream.status, p2Stream.status]).toEqual([200, 200]);
    vm = await orderVm(market, 'p1-vm', placement);
    // A pull by the organisation's owner: VmChanged events of the VM (its operation's progress).
    await market.api.ok('member', 'POST', `/api/vmware-virtual-machine/${vm.uuid}/pull/`);
    // The P1 member's stream has the order, the resource and the VM: they are all in the feed.
    for (const type of ['OrderStateChanged', 'ResourceStateChanged', 'VmChanged'])
      await p1Stream.waitFor((client) => ofP1(client).some((m) => m.event === type), 60_000, `P1 ${type}`);
    firstSeq = Math.min(...ofP1(p1Stream).map((m) => Number(m.id)));
  });

  afterAll(async () => {
    p1Stream?.close();
    p2Stream?.close();
    await market?.stop();
  });

  it('REST: the P2 member neither lists, reads, stops nor opens the console of P1’s VM (404)', async () => {
    const listed = await market.api.ok<Vm[]>('p2-member', 'GET', '/api/vmware-virtual-machine/');
    expect(listed.map((v) => v.uuid)).not.toContain(vm.uuid);
    expect((await market.api.call('p2-member', 'GET', vmPath())).status).toBe(404);
    expect((await market.api.call('p2-member', 'POST', vmPath('stop/'))).status).toBe(404);
    expect((await market.api.call('p2-member', 'GET', vmPath('console/'))).status).toBe(404);
    expect(
      (await market.api.ok<Vm[]>('staff', 'GET', '/api/vmware-virtual-machine/')).map((v) => v.uuid),
    ).toContain(vm.uuid);
  });

  it('REST: the P1 member reads it (200) and may not stop it (403 with the reason)', async () => {
    expect((await market.api.call('p1-member', 'GET', vmPath())).status).toBe(200);
    const stop = await market.api.call<{ detail: string }>('p1-member', 'POST', vmPath('stop/'));
    expect(stop.status).toBe(403);
    expect(stop.body.detail).toMatch(/manager or admin of the project/);
  });

  it('SSE live: the P2 member’s stream holds nothing of P1 when a later marker arrives', async () => {
    const arrived = await marker('after P1, live');
    await arrived(p1Stream);
    await arrived(p2Stream);
    expect(ofP1(p1Stream).length).toBeGreaterThan(0);
    expect(ofP1(p2Stream)).toEqual([]);
  });

  it('SSE replay: reconnecting with a Last-Event-ID before P1’s events replays none of them', async () => {
    const arrived = await marker('after P1, replayed');
    await arrived(p1Stream);
    const replay = await SseClient.open(`${base()}/api/events`, {
      token: market.api.tokens['p2-member'],
      lastEventId: firstSeq - 1,
    });
    try {
      await arrived(replay);
      // The replay began before P1's first event: the earlier marker came through it too.
      expect(replay.data<{ description?: string }>('OfferingChanged').map((o) => o.description)).toContain(
        'after P1, live',
      );
      expect(ofP1(replay)).toEqual([]);
      // And the P1 member's replay from the same point does carry them: the replay did cover them.
      const control = await SseClient.open(`${base()}/api/events`, {
        token: market.api.tokens['p1-member'],
        lastEventId: firstSeq - 1,
      });
      await arrived(control);
      expect(ofP1(control).length).toBeGreaterThan(0);
      control.close();
    } finally {
      replay.close();
    }
  });
});
