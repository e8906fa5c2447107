import type { InventorySnapshot, RemoteTemplateItem } from '../../vcenter/ports/inventory-source.port';
import { planSync, type StoredInventory, type StoredTemplate } from './sync-plan';

const GIB = 1024 ** 3;
const details = (nics = 1) => ({
  guest_OS: 'UBUNTU_64',
  cpu: { count: 2, cores_per_socket: 1 },
  memory: { size_MiB: 2048 },
  disks: { '2000': { capacity: 10 * GIB } },
  nics: Object.fromEntries(
    Array.from({ length: nics }, (_, i) => [String(4000 + i), { backing_type: 'STANDARD_PORTGROUP' }]),
  ),
});
const item = (backendId: string, name: string, raw: unknown, lastModified = 't1'): RemoteTemplateItem => ({
  backendId,
  name,
  description: '',
  lastModified,
  details: { status: 'read', raw },
});
const empty: StoredInventory = { templates: [], clusters: [], networks: [], datastores: [], folders: [] };
const snapshot = (overrides: Partial<InventorySnapshot> = {}): InventorySnapshot => ({
  clusters: [],
  networks: [],
  datastores: [],
  folders: [],
  templates: [],
  templateErrors: [],
  ...overrides,
});
const storedTemplate = (backendId: string, overrides: Partial<StoredTemplate> = {}): StoredTemplate => ({
  uuid: `00000000-0000-4000-8000-${backendId.padStart(12, '0')}`,
  backendId,
  name: `tmpl-${backendId}`,
  description: '',
  guestOs: 'UBUNTU_64',
  cores: 2,
  coresPerSocket: 1,
  ram: 2048,
  disk: 10240,
  nicCount: 1,
  itemModified: 't1',
  ...overrides,
});

describe('planSync', () => {
  it('imports complete templates and skips empty, skeleton and incomplete ones with reasons', () => {
    const plan = planSync(
      empty,
      snapshot({
        templates: [
          item('1', 'Ubuntu-24.04', details()),
          item('2', 'Empty', null),
          item('3', 'Skeleton', { cpu: {}, memory: {}, vm_home_storage: {} }),
          item('4', 'No-disk', { ...details(), disks: {} }),
        ],
      }),
      { basicMode: false },
    );
    expect(plan.templates.create.map((t) => t.name)).toEqual(['Ubuntu-24.04']);
    expect(plan.templates.create[0]).toMatchObject({
      cores: 2,
      ram: 2048,
      disk: 10240,
      nicCount: 1,
      itemModified: 't1',
    });
    expect(plan.skipped).toEqual([
      {
        kind: 'templates',
        backend_id: '2',
        name: 'Empty',
        reason: 'vCenter returned no details for it (an empty answer).',
      },
      {
        kind: 'templates',
        backend_id: '4',
        name: 'No-disk',
        reason: 'vCenter did not report disks (capacity) for it.',
      },
      {
        kind: 'templates',
        backend_id: '3',
        name: 'Skeleton',
        reason:
          'vCenter did not report cpu.count, cpu.cores_per_socket, memory.size_MiB, disks (capacity), guest_OS for it.',
      },
    ]);
    expect(plan.counts.templates).toBe(1);
    expect(plan.templateDetailsRead).toEqual(['1']);
  });

  it('skips templates with other than one NIC in basic mode only', () => {
    const templates = [
      item('1', 'one', details(1)),
      item('2', 'two', details(2)),
      item('3', 'none', details(0)),
    ];
    expect(planSync(empty, snapshot({ templates }), { basicMode: false }).templates.create).toHaveLength(3);
    const basic = planSync(empty, snapshot({ templates }), { basicMode: true });
    expect(basic.templates.create.map((t) => t.name)).toEqual(['one']);
    expect(basic.skipped.map((s) => [s.name, s.reason])).toEqual([
      ['none', 'In basic mode only templates with exactly one network adapter are offered; it has 0.'],
      ['two', 'In basic mode only templates with exactly one network adapter are offered; it has 2.'],
    ]);
  });

  it('keeps a template whose details were not read again, renames it, removes vanished ones', () => {
    const stored = { ...empty, templates: [storedTemplate('1'), storedTemplate('2')] };
    const plan = planSync(
      stored,
      snapshot({
        templates: [
          {
            backendId: '1',
            name: 'renamed',
            description: '',
            lastModified: 't1',
            details: { status: 'unchanged' },
          },
        ],
      }),
      { basicMode: false },
    );
    expect(plan.templates.update).toHaveLength(1);
    expect(plan.templates.update[0].existing).toBe(stored.templates[0]);
    expect(plan.templates.update[0].fresh).toMatchObject({ name: 'renamed', cores: 2, disk: 10240 });
    expect(plan.templates.remove).toEqual([stored.templates[1]]);
    expect(plan.templateDetailsRead).toEqual([]);
  });

  it('keeps the row of a template that could not be read this time, and says so', () => {
    const stored = { ...empty, templates: [storedTemplate('1'), storedTemplate('2')] };
    const plan = planSync(
      stored,
      snapshot({
        templates: [
          {
            backendId: '1',
            name: 'tmpl-1',
            description: '',
            details: { status: 'error', message: 'HTTP 500' },
          },
        ],
        templateErrors: [{ backendId: '2', message: 'timed out' }],
      }),
      { basicMode: false },
    );
    expect(plan.templates.remove).toEqual([]);
    expect(plan.counts.templates).toBe(2);
    expect(plan.errors).toEqual([
      'Library item 2 could not be read: timed out',
      'Template "tmpl-1" (1) could not be read: HTTP 500',
    ]);
  });

  it('reads datastore sizes in MB, -1 as 0, and skips only an absurd one (keeping its row)', () => {
    const stored = {
      ...empty,
      datastores: [
        {
          uuid: 'u',
          backendId: 'datastore-2',
          name: 'old',
          position: 1,
          type: 'VMFS',
          capacity: 5,
          freeSpace: 1,
        },
      ],
    };
    const plan = planSync(
      stored,
      snapshot({
        datastores: [
          { backendId: 'datastore-1', name: 'ds1', type: 'VMFS', capacityBytes: 2 * GIB, freeSpaceBytes: -1 },
          { backendId: 'datastore-2', name: 'ds2', type: 'VMFS', capacityBytes: 2 ** 70, freeSpaceBytes: 0 },
        ],
      }),
      { basicMode: false },
    );
    expect(plan.datastores.create).toEqual([
      { backendId: 'datastore-1', name: 'ds1', position: 0, type: 'VMFS', capacity: 2048, freeSpace: 0 },
    ]);
    expect(plan.datastores.remove).toEqual([]);
    expect(plan.datastores.update).toEqual([]);
    expect(plan.skipped).toEqual([
      expect.objectContaining({ kind: 'datastores', backend_id: 'datastore-2' }),
    ]);
    expect(plan.counts.datastores).toBe(2);
  });

  it('types networks and leaves out uplink port groups; keeps vCenter order for clusters and folders', () => {
    const plan = planSync(
      empty,
      snapshot({
        networks: [
          { backendId: 'network-7', name: 'VM Network', kind: 'standard', uplink: false },
          { backendId: 'dvportgroup-9', name: 'DVPG', kind: 'distributed', uplink: false },
          { backendId: 'dvportgroup-8', name: 'Uplinks', kind: 'distributed', uplink: true },
          { backendId: 'network-o1', name: 'nsx', kind: 'opaque', uplink: false },
        ],
        clusters: [
          { backendId: 'domain-c9', name: 'B' },
          { backendId: 'domain-c7', name: 'A' },
        ],
        folders: [{ backendId: 'group-v3', name: 'vm' }],
      }),
      { basicMode: false },
    );
    expect(plan.networks.create.map((n) => [n.backendId, n.type])).toEqual([
      ['network-7', 'STANDARD_PORTGROUP'],
      ['dvportgroup-9', 'DISTRIBUTED_PORTGROUP'],
      ['network-o1', 'OPAQUE_NETWORK'],
    ]);
    expect(plan.skipped.map((s) => s.backend_id)).toEqual(['dvportgroup-8']);
    expect(plan.clusters.create.map((c) => [c.backendId, c.position])).toEqual([
      ['domain-c9', 0],
      ['domain-c7', 1],
    ]);
    expect(plan.counts).toEqual({ templates: 0, clusters: 2, networks: 3, datastores: 0, folders: 1 });
  });
});
