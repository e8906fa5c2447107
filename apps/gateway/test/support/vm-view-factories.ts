import type { DiskView, PortView, VirtualMachineView, VmOperationView } from '@app/contracts';

/** Test data: the adapter's views with every field set, overridden per test. */
export const testUuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const now = '2026-11-30T12:00:00.000Z';
const vmUuid = '4213a1b2-0000-0000-0000-000000000001';

export function diskView(overrides: Partial<DiskView> = {}): DiskView {
  return {
    uuid: testUuid(20),
    name: 'Hard disk 2',
    size: 2048,
    state: 'OK',
    error_message: '',
    backend_id: '2001',
    vm_uuid: vmUuid,
    created: now,
    modified: now,
    ...overrides,
  };
}

export function portView(overrides: Partial<PortView> = {}): PortView {
  return {
    uuid: testUuid(30),
    name: 'Network adapter 1',
    mac_address: '00:50:56:aa:bb:cc',
    network_uuid: testUuid(31),
    network_name: 'DC0_DVPG0',
    runtime_state: 'CONNECTED',
    state: 'OK',
    error_message: '',
    backend_id: '4000',
    vm_uuid: vmUuid,
    created: now,
    modified: now,
    ...overrides,
  };
}

export function vmView(overrides: Partial<VirtualMachineView> = {}): VirtualMachineView {
  return {
    uuid: vmUuid,
    name: 'vm-1',
    backend_id: 'vm-42',
    state: 'OK',
    error_message: '',
    runtime_state: 'POWERED_OFF',
    cores: 2,
    cores_per_socket: 1,
    ram: 2048,
    disk: 2048,
    tools_installed: false,
    tools_state: 'NOT_RUNNING',
    disks: [diskView()],
    ports: [portView()],
    marketplace_resource_uuid: testUuid(6),
    customer_uuid: testUuid(4),
    project_uuid: testUuid(3),
    offering_uuid: testUuid(2),
    created: now,
    modified: now,
    ...overrides,
  };
}

export function operationView(overrides: Partial<VmOperationView> = {}): VmOperationView {
  return {
    uuid: testUuid(40),
    status: 'stop was scheduled',
    operation: 'stop',
    vm_uuid: vmUuid,
    state: 'done',
    error_message: '',
    disk_uuid: null,
    port_uuid: null,
    snapshot_uuid: null,
    created: now,
    ...overrides,
  };
}
