import { Links } from '../rest/links';
import { presentVm } from '../rest/vm-presenters';
import { operationView, vmView } from '../../test/support/vm-view-factories';
import { decodeFeedEvent, sseFrame } from './feed-event';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const now = '2026-11-30T12:00:00.000Z';
const order = {
  uuid: uuid(1),
  type: 'Create',
  state: 'done',
  offering_uuid: uuid(2),
  offering_name: 'o',
  offering_type: 'Marketplace.Basic',
  project_uuid: uuid(3),
  project_name: 'p',
  customer_uuid: uuid(4),
  customer_name: 'c',
  plan_uuid: null,
  plan_name: null,
  provider_uuid: uuid(5),
  provider_name: 'pr',
  marketplace_resource_uuid: uuid(6),
  resource_uuid: null,
  resource_name: 'vm',
  attributes: { note: 'line\nbreak' },
  limits: {},
  cost: null,
  error_message: '',
  created_by_uuid: null,
  created_by_username: null,
  created: now,
  modified: now,
  completed_at: now,
};
const envelope = (type: string, data: unknown) =>
  Buffer.from(JSON.stringify({ id: uuid(9), type, occurredAt: now, correlationId: uuid(1), data }));

describe('decodeFeedEvent', () => {
  it('reads an OrderStateChanged: its scope, its terminal state and its frame with REST links', () => {
    const event = decodeFeedEvent(7, envelope('OrderStateChanged', { order, previous_state: 'executing' }));
    if (event.kind !== 'public') throw new Error(event.kind);
    expect(event.scope).toEqual({
      orderUuid: uuid(1),
      marketplaceResourceUuid: uuid(6),
      projectUuid: uuid(3),
      offeringUuid: uuid(2),
      customerUuid: uuid(4),
      providerUuid: uuid(5),
      public: false,
    });
    expect(event.terminalOrder).toBe(true);
    const frame = event.frame(new Links('http://gw')).toString();
    const lines = frame.split('\n');
    expect(lines.slice(0, 2)).toEqual(['id: 7', 'event: OrderStateChanged']);
    // One data line even though a value holds a line break.
    expect(lines.slice(3)).toEqual(['', '']);
    expect(JSON.parse(lines[2].slice('data: '.length))).toMatchObject({
      url: 'http://gw/api/marketplace-orders/00000000-0000-4000-8000-000000000001/',
      state: 'done',
    });
    expect(event.frame(new Links('http://gw'))).toBe(event.frame(new Links('http://gw')));
  });

  it("reads a VmChanged: scoped to the VM's project and customer, framed as the REST VM with its operation", () => {
    const vm = vmView({ runtime_state: 'POWERED_OFF' });
    const operation = operationView({ operation: 'stop', state: 'done' });
    const event = decodeFeedEvent(8, envelope('VmChanged', { previousState: 'POWERED_ON', vm, operation }));
    if (event.kind !== 'public') throw new Error(event.kind);
    expect(event.type).toBe('VmChanged');
    expect(event.scope).toEqual({
      marketplaceResourceUuid: uuid(6),
      projectUuid: uuid(3),
      offeringUuid: uuid(2),
      customerUuid: uuid(4),
      providerUuid: uuid(4),
      public: false,
    });
    const data = event.frame(new Links('http://gw')).toString().split('\n')[2].slice('data: '.length);
    expect(JSON.parse(data)).toEqual({
      ...presentVm(vm, new Links('http://gw')),
      operation: {
        ...operation,
        detail: operation.status,
        vm: `http://gw/api/vmware-virtual-machine/${vm.uuid}/`,
        disk: null,
        port: null,
        snapshot: null,
      },
    });
    expect(JSON.parse(data)).toMatchObject({
      url: `http://gw/api/vmware-virtual-machine/${vm.uuid}/`,
      disks: [{ url: `http://gw/api/vmware-disks/${vm.disks[0].uuid}/`, size: 2048 }],
      ports: [{ url: `http://gw/api/vmware-ports/${vm.ports[0].uuid}/`, network_name: 'DC0_DVPG0' }],
    });
    expect(decodeFeedEvent(9, envelope('VmChanged', { vm: {} }))).toMatchObject({ kind: 'skipped' });
  });

  it('frames a VmChanged that a pull of its own found with a null operation', () => {
    const vm = vmView();
    const event = decodeFeedEvent(
      10,
      envelope('VmChanged', { previousState: 'POWERED_ON', vm, operation: null }),
    );
    if (event.kind !== 'public') throw new Error(event.kind);
    const data = event.frame(new Links('http://gw')).toString().split('\n')[2].slice('data: '.length);
    expect(JSON.parse(data)).toMatchObject({ uuid: vm.uuid, operation: null });
  });

  it("reads SyncStarted, SyncFinished and IntegrationStateChanged: scoped to the offering's provider, framed as published", () => {
    const counts = { templates: 1, clusters: 2, networks: 3, datastores: 4, folders: 5 };
    const none = { created: 0, updated: 0, removed: 0 };
    const integration = {
      offering_uuid: uuid(2),
      backend_url: 'https://vc.example',
      username: 'admin',
      password_set: true,
      default_cluster_label: '',
      max_cpu: null,
      max_ram: null,
      max_disk: null,
      max_disk_total: null,
      max_cores_per_socket: null,
      verify_ssl: false,
      ca_pem: null,
      state: 'OK',
      error_message: '',
      sync_state: 'SYNCING',
      last_sync_started: now,
      last_sync_finished: null,
      last_sync_success: null,
      last_sync_error: '',
      counts,
      skipped: [],
      basic_mode: false,
      created: now,
      modified: now,
    };
    const finished = {
      offeringUuid: uuid(2),
      providerUuid: uuid(5),
      outcome: 'OK',
      errorMessage: '',
      counts,
      changes: { templates: none, clusters: none, networks: none, datastores: none, folders: none },
      skipped: [],
      errors: [],
      durationMs: 12,
      integration,
    };
    const stateChanged = {
      offeringUuid: uuid(2),
      providerUuid: uuid(5),
      previousState: 'CREATING',
      state: 'OK',
      errorMessage: '',
      integration,
    };
    const cases = [
      ['SyncStarted', { offeringUuid: uuid(2), providerUuid: uuid(5), integration }],
      ['SyncFinished', finished],
      ['IntegrationStateChanged', stateChanged],
    ] as const;
    for (const [type, data] of cases) {
      const event = decodeFeedEvent(11, envelope(type, data));
      if (event.kind !== 'public') throw new Error(`${type}: ${event.kind}`);
      expect(event.type).toBe(type);
      expect(event.scope).toEqual({
        offeringUuid: uuid(2),
        customerUuid: uuid(5),
        providerUuid: uuid(5),
        public: false,
      });
      const frame = event.frame(new Links('http://gw')).toString().split('\n');
      expect(frame.slice(0, 2)).toEqual(['id: 11', `event: ${type}`]);
      expect(JSON.parse(frame[2].slice('data: '.length))).toEqual(data);
      expect(decodeFeedEvent(12, envelope(type, { ...data, offeringUuid: 'x' }))).toMatchObject({
        kind: 'skipped',
        reason: `invalid ${type}`,
      });
      // From an integration never told its offering's customer: no owner matches, staff still see it.
      const untold = decodeFeedEvent(13, envelope(type, { ...data, providerUuid: null }));
      if (untold.kind !== 'public') throw new Error(`${type}: ${untold.kind}`);
      expect(untold.scope).toMatchObject({ customerUuid: '', providerUuid: '' });
    }
  });

  it('reads AccessChanged as internal, and skips what it cannot stream', () => {
    expect(decodeFeedEvent(1, envelope('AccessChanged', { user_uuids: [uuid(1)] }))).toEqual({
      kind: 'access',
      seq: 1,
      userUuids: [uuid(1)],
    });
    expect(decodeFeedEvent(2, Buffer.from('nope'))).toMatchObject({ kind: 'skipped', reason: 'not JSON' });
    expect(decodeFeedEvent(3, envelope('OrderStateChanged', { order: {} }))).toMatchObject({
      kind: 'skipped',
    });
    expect(decodeFeedEvent(4, envelope('SyncStarted', {}))).toMatchObject({ kind: 'skipped' });
    expect(decodeFeedEvent(5, envelope('OrderCanceled', {}))).toMatchObject({
      kind: 'skipped',
      reason: 'type OrderCanceled is not streamed',
    });
  });

  it('writes a control message without an id unless given', () => {
    expect(sseFrame({ event: 'history-lost', data: { a: 1 } }).toString()).toBe(
      'event: history-lost\ndata: {"a":1}\n\n',
    );
  });
});
