import { asMoRef, encodeFilterSpec, toUpdateSet, type MoRef, type UpdateSet } from '@app/vim25';
import { rawSoap, type RawSoapAnswer } from '../../support/raw-soap';
import { startVcsimWithFront, type VcsimWithFront } from '../../support/vcsim-front';

jest.setTimeout(90_000);

const SESSION_MANAGER = { type: 'SessionManager', value: 'SessionManager' };
const COLLECTOR = { type: 'PropertyCollector', value: 'propertyCollector' };
const VIEW_MANAGER = { type: 'ViewManager', value: 'ViewManager' };
const ROOT = { type: 'Folder', value: 'group-d1' };

/**
 * A bare client's subscription to every VM's name and power state (its own login, collector,
 * container view and filter), spoken in raw vim25 so nothing logs in again behind the test's back.
 */
async function subscribe(
  target: { url: string; caPem: string },
  user: { username: string; password: string },
) {
  const login = await rawSoap(target, 'Login', SESSION_MANAGER, {
    userName: user.username,
    password: user.password,
  });
  const cookie = login.cookie!;
  const call = (method: string, self: MoRef, args = {}) => rawSoap(target, method, self, args, cookie);
  const collector = asMoRef((await call('CreatePropertyCollector', COLLECTOR)).value)!;
  const view = asMoRef(
    (
      await call('CreateContainerView', VIEW_MANAGER, {
        container: ROOT,
        type: ['VirtualMachine'],
        recursive: true,
      })
    ).value,
  )!;
  const spec = encodeFilterSpec({
    propSet: [{ type: 'VirtualMachine', pathSet: ['name', 'runtime.powerState'] }],
    objectSet: [
      { obj: view, skip: true, selectSet: [{ name: 'v', type: 'ContainerView', path: 'view', skip: false }] },
    ],
  });
  const filter = asMoRef((await call('CreateFilter', collector, { spec, partialUpdates: false })).value)!;
  const wait = (version: string, options: { maxWaitSeconds?: number; maxObjectUpdates?: number }) =>
    call('WaitForUpdatesEx', collector, { version, options });
  return { cookie, collector, filter, call, wait };
}

const updates = (answer: RawSoapAnswer): UpdateSet | undefined => toUpdateSet(answer.value);

describe('the front: WaitForUpdatesEx as vCenter 8 answers it', () => {
  let sim: VcsimWithFront;
  const user = { username: 'svc', password: 's3cret' };

  beforeAll(async () => {
    sim = await startVcsimWithFront(user);
  });

  afterAll(() => sim.stop());

  it('answers empty at the end of maxWaitSeconds when nothing changed, and the version stays good', async () => {
    const feed = await subscribe(sim, user);
    const initial = updates(await feed.wait('', {}))!;
    expect(initial.objects.length).toBeGreaterThan(0);
    const started = Date.now();
    const idle = await feed.wait(initial.version, { maxWaitSeconds: 1 });
    expect(idle.faultType).toBeUndefined();
    expect(updates(idle)).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect((await feed.wait(initial.version, { maxWaitSeconds: 1 })).faultType).toBeUndefined();
  });

  it('answers at most maxObjectUpdates updates, truncated until the last part, each part under a new version', async () => {
    const feed = await subscribe(sim, user);
    const all = updates(await (await subscribe(sim, user)).wait('', {}))!.objects.map((o) => o.obj.value);
    expect(all.length).toBeGreaterThan(2);
    const seen: string[] = [];
    let version = '';
    let parts = 0;
    for (;;) {
      const part = updates(await feed.wait(version, { maxObjectUpdates: 2, maxWaitSeconds: 5 }))!;
      parts++;
      expect(part.objects.length).toBeLessThanOrEqual(2);
      expect(part.version).not.toBe(version);
      seen.push(...part.objects.map((o) => o.obj.value));
      version = part.version;
      if (!part.truncated) break;
    }
    expect(parts).toBe(Math.ceil(all.length / 2));
    expect(seen.sort()).toEqual([...all].sort());
  });

  it('refuses a version it did not give last with InvalidCollectorVersion (vcsim takes any and waits)', async () => {
    const feed = await subscribe(sim, user);
    const first = updates(await feed.wait('', { maxObjectUpdates: 1 }))!;
    expect(first.truncated).toBe(true);
    const second = updates(await feed.wait(first.version, { maxObjectUpdates: 1 }))!;
    // A truncated version is good once; an unknown one never.
    expect((await feed.wait(first.version, { maxWaitSeconds: 1 })).faultType).toBe('InvalidCollectorVersion');
    expect((await feed.wait('no-such-version', { maxWaitSeconds: 1 })).faultType).toBe(
      'InvalidCollectorVersion',
    );
    expect((await feed.wait(second.version, { maxWaitSeconds: 1 })).faultType).toBeUndefined();

    const direct = await subscribe(sim.vcsim, user);
    await direct.wait('', {});
    expect((await direct.wait('no-such-version', { maxWaitSeconds: 1 })).faultType).toBeUndefined();
  });

  it('answers a wait held when its session times out with NotAuthenticated at once, and the filter dies with the session', async () => {
    const feed = await subscribe(sim, user);
    const initial = updates(await feed.wait('', {}))!;
    const started = Date.now();
    const held = feed.wait(initial.version, { maxWaitSeconds: 60 });
    // The wait is at vcsim before the session ends.
    const deadline = Date.now() + 10_000;
    while (sim.front.heldUpdateWaits() < 1 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sim.front.heldUpdateWaits()).toBe(1);
    expect(await sim.front.expireSoapSessions()).toBeGreaterThanOrEqual(1);
    const answer = await held;
    expect(answer.faultType).toBe('NotAuthenticated');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await feed.wait(initial.version, { maxWaitSeconds: 1 })).faultType).toBe('NotAuthenticated');

    // A new session of the same user finds neither the collector nor its filter.
    const again = await subscribe(sim, user);
    const read = (obj: MoRef, path: string) =>
      again.call('RetrievePropertiesEx', COLLECTOR, {
        specSet: { propSet: { type: obj.type, pathSet: path }, objectSet: { obj, skip: false } },
        options: {},
      });
    expect((await read(feed.collector, 'filter')).faultType).toBe('ManagedObjectNotFound');
    expect((await read(feed.filter, 'spec')).faultType).toBe('ManagedObjectNotFound');
    expect(
      (await again.call('WaitForUpdatesEx', feed.collector, { version: '', options: {} })).faultType,
    ).toBe('ManagedObjectNotFound');
  });
});
