import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import {
  type Envelope,
  type IntegrationStateChanged,
  type IntegrationView,
  type Page,
  type SyncFinished,
  type TemplateView,
} from '@app/contracts';
import { buildEnvelope, publishEvent } from '@app/messaging';
import { SyncRequestedEvent, VMWARE_VM_TYPE } from '@app/contracts';
import { connectVim, VimFault, VimSessionRegistry } from '@app/vim25';
import { freePort } from '../../../test/support/free-port';
import { readEnvelopes } from '../../../test/support/stream-reader';
import type { TestDatabase } from '../../../test/support/test-database';
import type { TestNats } from '../../../test/support/test-nats';
import type { VcsimWithFront } from '../../../test/support/vcsim-front';
import { SyncCoordinator } from '../src/integration/services/sync-coordinator.service';
import { IntegrationService } from '../src/integration/services/integration.service';
import { credentialKey, startAdapter, type AdapterInstance } from './support/adapter-harness';
import { announceOffering } from './support/offering-states';
import { startAdapterSuite, stopAdapterSuite } from './support/adapter-suite';
import {
  answers,
  ask,
  dataOf,
  getIntegration,
  ownerOf,
  saveAndSettle,
  settled,
  staff,
  syncAndSettle,
  type RequestClient,
} from './support/requests';
import type { VcsimLibrary } from './support/vcsim-library';

jest.setTimeout(90_000);

const PASSWORD = 'S3cret-Pass!word';
const WRONG_PASSWORD = 'Wr0ng-Pass!word';

describe('synchronising an offering with vcsim through the front', () => {
  let sim: VcsimWithFront;
  let db: TestDatabase;
  let nats: TestNats;
  let adapter: AdapterInstance;
  let second: AdapterInstance | undefined;
  let client: RequestClient;
  let library: VcsimLibrary;
  const offering = randomUUID();
  const keys = credentialKey();

  const templates = async (): Promise<TemplateView[]> =>
    dataOf(
      await ask<Page<TemplateView>>(client, 'vsphere.templates.list', {
        caller: ownerOf(),
        params: {},
        query: { offering_uuid: offering, page_size: 300 },
        body: {},
      }),
    ).items;
  const events = async <T>(subject: string): Promise<Envelope<T>[]> =>
    (await readEnvelopes(nats.jsm, nats.topology.streams.vsphere.name, subject)) as Envelope<T>[];

  /** The events on `subject` once `done` holds for them (the relay publishes just after the commit). */
  const eventually = async <T>(
    subject: string,
    done: (all: Envelope<T>[]) => boolean,
  ): Promise<Envelope<T>[]> => {
    for (const deadline = Date.now() + 10_000; ;) {
      const all = await events<T>(subject);
      if (done(all)) return all;
      if (Date.now() > deadline)
        throw new Error(
          `events on ${subject} never satisfied the test: ${JSON.stringify(all.map((e) => e.data))}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  /** The offering's SyncStarted and SyncFinished events, in stream order. */
  const syncEvents = async (): Promise<{ subject: string; envelope: Envelope }[]> => {
    const stream = nats.topology.streams.vsphere.name;
    const { subjects } = nats.topology;
    const { state } = await nats.jsm.streams.info(stream);
    const found: { subject: string; envelope: Envelope }[] = [];
    for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
      const message = await nats.jsm.streams.getMessage(stream, { seq });
      if (message === null || ![subjects.syncStarted, subjects.syncFinished].includes(message.subject))
        continue;
      const envelope = message.json<Envelope>();
      if (envelope.correlationId === offering) found.push({ subject: message.subject, envelope });
    }
    return found;
  };

  beforeAll(async () => {
    ({ sim, db, nats, adapter, client, library } = await startAdapterSuite({
      database: 'adapter_sync',
      namespace: 'adaptersync',
      vcsim: { username: 'svc@vsphere.local', password: PASSWORD },
      env: { CREDENTIALS_KEYS: keys },
    }));
    // Public, as the order service announces an Active offering: its inventory is for every organisation.
    await announceOffering(nats, db.url, { uuid: offering, customerUuid: randomUUID(), state: 'Active' });
    await library.publish('Ubuntu-24.04', { guestId: 'ubuntu64Guest' });
    await library.publish('Windows Server 2016', { guestId: 'windows9Server64Guest' });
  });

  afterAll(async () => {
    await second?.close();
    await stopAdapterSuite({ adapter, client, library, sim, nats, db });
  });

  it("is ERRED while the credentials are incomplete, then OK with vcsim's inventory", async () => {
    let view = await saveAndSettle(client, offering, { backend_url: sim.url, ca_pem: sim.caPem });
    expect(view).toMatchObject({
      state: 'ERRED',
      error_message: 'The credentials are incomplete: username, password are not set.',
      password_set: false,
    });
    view = await saveAndSettle(client, offering, { username: 'svc@vsphere.local' });
    expect(view.error_message).toBe('The credentials are incomplete: password is not set.');
    view = await saveAndSettle(client, offering, { max_ram: '32768' });
    expect(view).toMatchObject({ state: 'ERRED', max_ram: 32768 });
    view = await saveAndSettle(client, offering, { password: PASSWORD });
    const vcsim = await library.counts();
    expect(view).toMatchObject({
      state: 'OK',
      error_message: '',
      password_set: true,
      verify_ssl: true, // the default
      warnings: [],
      last_sync_error: '',
      counts: { templates: 2, ...vcsim },
    });
    expect(view.last_sync_success).not.toBeNull();
    expect(vcsim.clusters).toBeGreaterThan(0);

    const listed = await templates();
    expect(listed.map((t) => [t.name, t.os, t.os_version, t.guest_os])).toEqual([
      ['Ubuntu-24.04', 'Ubuntu', '24.04', 'UBUNTU_64'],
      ['Windows Server 2016', 'Windows Server', '2016', 'WINDOWS_9_SERVER_64'],
    ]);
    expect(listed[0]).toMatchObject({ cores: 1, cores_per_socket: 1, ram: 32, nic_count: 1 });
    expect(listed[0].disk).toBeGreaterThan(0);

    const changes = await eventually<IntegrationStateChanged>(
      nats.topology.subjects.integrationStateChanged,
      (all) => all.length >= 3,
    );
    expect(changes.map((e) => [e.data.previousState, e.data.state])).toEqual([
      ['CREATING', 'ERRED'],
      ['ERRED', 'ERRED'], // a new error message
      ['ERRED', 'OK'],
    ]);
    expect(changes[2].data.integration).toMatchObject({ state: 'OK', offering_uuid: offering });
  });

  it('lists every network with its type, datastores in MB and VM folders, as staff see them', async () => {
    const list = async <T>(pattern: string) =>
      dataOf(
        await ask<Page<T>>(client, pattern, {
          caller: staff(),
          params: {},
          query: { offering_uuid: offering },
          body: {},
        }),
      );
    const vcsim = await library.counts();
    const networks = await list<{ name: string; type: string }>('vsphere.networks.list');
    expect(networks.count).toBe(vcsim.networks);
    expect(networks.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'VM Network', type: 'STANDARD_PORTGROUP' }),
        expect.objectContaining({ name: 'DC0_DVPG0', type: 'DISTRIBUTED_PORTGROUP' }),
      ]),
    );
    const datastores = await list<{ capacity: number; free_space: number }>('vsphere.datastores.list');
    expect(datastores.count).toBe(vcsim.datastores);
    expect(datastores.items[0].capacity).toBeGreaterThan(0);
    expect(datastores.items[0].free_space).toBeLessThanOrEqual(datastores.items[0].capacity);
    expect((await list('vsphere.folders.list')).count).toBe(vcsim.folders);
    expect((await list('vsphere.clusters.list')).count).toBe(vcsim.clusters);
  });

  it('lists a template published in vCenter after the next sync, and forgets it once deleted', async () => {
    const itemId = await library.publish('Rocky-9.4', { guestId: 'other3xLinux64Guest' });
    let view = await syncAndSettle(client, offering);
    expect(view.counts.templates).toBe(3);
    expect((await templates()).find((t) => t.backend_id === itemId)).toMatchObject({
      name: 'Rocky-9.4',
      os: 'Rocky',
      os_version: '9.4',
      guest_os: 'OTHER_3X_LINUX_64',
      guest_os_name: 'Other 3.x Linux (64-bit)',
    });
    await library.deleteItem(itemId);
    view = await syncAndSettle(client, offering);
    expect(view.counts.templates).toBe(2);
    expect((await templates()).map((t) => t.backend_id)).not.toContain(itemId);
    const finished = await eventually<SyncFinished>(nats.topology.subjects.syncFinished, (all) =>
      all.some((e) => e.data.changes.templates.removed === 1),
    );
    expect(
      finished.filter((e) => e.data.changes.templates.created === 1 && e.data.outcome === 'OK'),
    ).toHaveLength(1);
  });

  it('skips templates vCenter cannot describe or that lack hardware, with reasons, and keeps the rest', async () => {
    const skeleton = await library.publish('Skeleton-1');
    const empty = await library.publish('Empty-1');
    const noDisk = await library.publish('Diskless-1', { disk: false });
    const twoNics = await library.publish('Debian-12', { nics: 2 });
    sim.front.markTemplateUndescribed(skeleton, 'skeleton');
    sim.front.markTemplateUndescribed(empty, 'empty');
    const view = await syncAndSettle(client, offering);
    expect(view.state).toBe('OK');
    expect(view.skipped).toEqual([
      {
        kind: 'templates',
        backend_id: noDisk,
        name: 'Diskless-1',
        reason: 'vCenter did not report disks (capacity) for it.',
      },
      {
        kind: 'templates',
        backend_id: empty,
        name: 'Empty-1',
        reason: 'vCenter returned no details for it (an empty answer).',
      },
      {
        kind: 'templates',
        backend_id: skeleton,
        name: 'Skeleton-1',
        reason:
          'vCenter did not report cpu.count, cpu.cores_per_socket, memory.size_MiB, disks (capacity), guest_OS for it.',
      },
    ]);

    const names = (await templates()).map((t) => t.name);
    expect(names).toEqual(['Debian-12', 'Ubuntu-24.04', 'Windows Server 2016']);
    expect((await templates()).find((t) => t.backend_id === twoNics)?.nic_count).toBe(2);
    const finished = await eventually<SyncFinished>(nats.topology.subjects.syncFinished, (all) =>
      all.some((e) => e.data.skipped.length > 0),
    );
    expect(finished.find((e) => e.data.skipped.length > 0)?.data.skipped.map((s) => s.backend_id)).toEqual([
      noDisk,
      empty,
      skeleton,
    ]);
    for (const id of [skeleton, empty, noDisk]) await library.deleteItem(id);
    await library.deleteItem(twoNics);
    expect((await syncAndSettle(client, offering)).counts.templates).toBe(2);
  });

  it("gives ERRED with vCenter's own message for a wrong password, keeps the inventory, and OK once fixed", async () => {
    const refusal = await connectVim(
      { url: sim.url, caPem: sim.caPem, username: 'svc@vsphere.local', password: WRONG_PASSWORD },
      {},
      new VimSessionRegistry(),
    ).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(VimFault);
    expect((refusal as VimFault).faultType).toBe('InvalidLogin');
    const before = await getIntegration(client, offering);

    const view = await saveAndSettle(client, offering, { password: WRONG_PASSWORD });
    expect(view).toMatchObject({ state: 'ERRED', error_message: (refusal as VimFault).message });
    expect(view.counts).toEqual(before.counts);
    expect(view.last_sync_success).toBe(before.last_sync_success);
    expect((await templates()).map((t) => t.name)).toEqual(['Ubuntu-24.04', 'Windows Server 2016']);

    expect(await saveAndSettle(client, offering, { password: PASSWORD })).toMatchObject({ state: 'OK' });
  });

  it('gives a connection message for an unreachable vCenter', async () => {
    const closed = `https://127.0.0.1:${await freePort()}`;
    // A new address takes the password again: the stored one is bound to the old address.
    const view = await saveAndSettle(client, offering, { backend_url: closed, password: PASSWORD });
    expect(view.state).toBe('ERRED');
    expect(view.error_message).toBe(
      'vCenter did not answer at backend_url (no connection could be made). Check the address and that vCenter is up.',
    );
    expect(await saveAndSettle(client, offering, { backend_url: sim.url, password: PASSWORD })).toMatchObject(
      { state: 'OK' },
    );
  });

  it('warns while verify_ssl is off, which the provider turns off explicitly', async () => {
    // Certificate checks turned off clear a stored password unless it is entered with the change.
    const view = await saveAndSettle(client, offering, { verify_ssl: 'off', password: PASSWORD });
    expect(view).toMatchObject({ state: 'OK', verify_ssl: false });
    expect(view.warnings).toEqual([
      expect.stringMatching(/^verify_ssl is off: vCenter's TLS certificate is not checked/),
    ]);
    expect(await saveAndSettle(client, offering, { verify_ssl: 'on' })).toMatchObject({ warnings: [] });
  });

  it('gives a TLS message for an untrusted certificate with verify_ssl on, and OK once its CA is given', async () => {
    let view = await saveAndSettle(client, offering, { ca_pem: null, password: PASSWORD });
    expect(view).toMatchObject({ state: 'ERRED', verify_ssl: true });
    expect(view.error_message).toMatch(/^TLS: vCenter's certificate is not trusted \([A-Z_]+\)\. Set ca_pem/);
    view = await saveAndSettle(client, offering, { ca_pem: sim.caPem, password: PASSWORD });
    expect(view).toMatchObject({ state: 'OK', error_message: '', ca_pem: sim.caPem.trim() });
  });

  it('refuses bad attributes with the field and the rule', async () => {
    const reply = await ask(client, 'vsphere-internal.integration.update', {
      offering_uuid: offering,
      service_attributes: { backend_url: 'vcenter.example.org', max_cpu: -1 },
    });
    expect(reply).toEqual({
      status: 'error',
      code: 400,
      fields: {
        'service_attributes.backend_url': ['Enter a valid URL.'],
        'service_attributes.max_cpu': ['Ensure this value is greater than or equal to 1.'],
      },
    });
    expect(
      await ask(client, 'vsphere-internal.integration.update', {
        offering_uuid: offering,
        service_attributes: { default_cluster_label: 'NoSuchCluster' },
      }),
    ).toMatchObject({
      status: 'error',
      code: 400,
      fields: {
        'service_attributes.default_cluster_label': [
          expect.stringMatching(/No cluster named "NoSuchCluster"/),
        ],
      },
    });
    expect(await ask(client, 'vsphere-internal.integration.get', { offering_uuid: randomUUID() })).toEqual({
      status: 'error',
      code: 404,
      detail: 'Not found.',
    });
  });

  it('coalesces requests made during a running sync into exactly one more run, across instances', async () => {
    second = await startAdapter({
      databaseUrl: db.url,
      namespace: nats.topology.namespace,
      env: { CREDENTIALS_KEYS: keys },
    });
    const started = async () =>
      (await events<unknown>(nats.topology.subjects.syncStarted)).filter((e) => e.correlationId === offering)
        .length;
    const runsBefore = await started();
    const sinceFinished = (await getIntegration(client, offering)).last_sync_finished;

    // The front holds every /api call: the sync below stops at its Content Library read.
    const release = sim.front.holdApi();
    try {
      dataOf(await ask(client, 'vsphere-internal.integration.sync', { offering_uuid: offering }));
      const deadline = Date.now() + 10_000;
      while (
        (await getIntegration(client, offering)).sync_state !== 'SYNCING' ||
        (await started()) === runsBefore
      ) {
        if (Date.now() > deadline) throw new Error('the sync did not start');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // Three more requests while it runs: over NATS, from the scheduler's stream, and on the other instance.
      expect(
        dataOf(await ask(client, 'vsphere-internal.integration.sync', { offering_uuid: offering })),
      ).toMatchObject({
        sync_state: 'SYNCING',
      });
      const { subjects, consumers } = nats.topology;
      const ack = await publishEvent(
        jetstream(nats.nc),
        subjects.syncRequested(VMWARE_VM_TYPE),
        buildEnvelope(SyncRequestedEvent, { offeringUuid: offering, reason: 'schedule' }, offering),
      );
      for (const deadlineAck = Date.now() + 10_000; ;) {
        const info = await nats.jsm.consumers.info(
          consumers.adapterSyncRequested.stream,
          consumers.adapterSyncRequested.durable,
        );
        if (info.ack_floor.stream_seq >= ack.seq) break;
        if (Date.now() > deadlineAck) throw new Error('SyncRequested was not consumed');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      dataOf(await second.app.get(IntegrationService).sync(offering));
      await new Promise((resolve) => setTimeout(resolve, 700)); // both instances sweep meanwhile
    } finally {
      release();
    }
    await settled(client, offering, sinceFinished);
    await Promise.all([adapter, second].map((a) => a.app.get(SyncCoordinator).idle(offering)));
    await new Promise((resolve) => setTimeout(resolve, 1_200)); // two more sweeps: nothing more may start
    expect((await getIntegration(client, offering)).sync_state).toBe('IDLE');
    expect((await started()) - runsBefore).toBe(2);
    // Never two at once: in the stream, every start of the offering's runs is followed by its finish.
    const { subjects } = nats.topology;
    const sequence = (await syncEvents())
      .map((e) => (e.subject === subjects.syncStarted ? 'S' : 'F'))
      .join('');
    expect(sequence).toMatch(/^(SF)+$/);
  });

  it('never shows the password: not in any answer, event or log line', async () => {
    const { state } = await nats.jsm.streams.info(nats.topology.streams.vsphere.name);
    const payloads: string[] = [];
    for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
      const message = await nats.jsm.streams.getMessage(nats.topology.streams.vsphere.name, { seq });
      if (message !== null) payloads.push(message.string());
    }
    expect(payloads.length).toBeGreaterThan(10);
    const logs = [adapter, second].flatMap((a) => a?.lines ?? []).map((line) => JSON.stringify(line));
    expect(logs.some((line) => line.includes('synchronisation failed'))).toBe(true);
    const haystacks = [...payloads, ...logs, ...answers.map((a) => JSON.stringify(a))];
    for (const secret of [PASSWORD, WRONG_PASSWORD]) {
      expect(haystacks.filter((text) => text.includes(secret))).toEqual([]);
    }
    const view: IntegrationView = await getIntegration(client, offering);
    expect(view).not.toHaveProperty('password');
  });
});
