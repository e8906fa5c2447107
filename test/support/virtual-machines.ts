import type { Json } from './api-session';
import { SseClient } from './sse-client';
import type { VsphereMarketplace } from './vsphere-marketplace';

type Named = Json & { uuid: string; name: string };

/** A VM operation as the 202 answers and VmChanged show it. */
export type Operation = Json & {
  uuid: string;
  status: string;
  operation: string;
  vm_uuid: string;
  state: 'pending' | 'running' | 'done' | 'erred';
  error_message: string;
  disk_uuid: string | null;
  port_uuid: string | null;
};

export type Disk = Json & {
  uuid: string;
  url: string;
  size: number;
  state: string;
  error_message: string;
  backend_id: string;
  vm_uuid: string;
};

export type Port = Json & {
  uuid: string;
  url: string;
  mac_address: string;
  network_uuid: string | null;
  network_name: string;
  runtime_state: string;
  state: string;
  error_message: string;
  backend_id: string;
  vm_uuid: string;
};

export type Vm = Json & {
  uuid: string;
  url: string;
  name: string;
  backend_id: string;
  state: string;
  runtime_state: string;
  cores: number;
  cores_per_socket: number;
  ram: number;
  disk: number;
  disks: Disk[];
  ports: Port[];
  marketplace_resource_uuid: string;
  customer_uuid: string;
};

/** VmChanged's SSE data: the VM as REST shows it, and the operation that made the change. */
export type VmChangedData = Vm & { operation: Operation | null };

type Order = Json & { uuid: string; state: string; resource_uuid: string | null; error_message: string };

/**
 * Orders a VM through the marketplace as `member` (the offering's first template and plan, powered
 * on as Waldur's create leaves it) and answers it as `/api/vmware-virtual-machine/{uuid}/` shows it.
 */
export async function orderVm(
  market: VsphereMarketplace,
  name: string,
  placement: { network: Named; folder: Named },
): Promise<Vm> {
  const base = market.api.base;
  const offering = `${base}/api/marketplace-public-offerings/${market.offering.uuid}/`;
  const order = await market.api.ok<Order>('member', 'POST', '/api/marketplace-orders/', {
    offering,
    project: `${base}/api/projects/${market.project.uuid}/`,
    plan: `${offering}plans/${market.offering.plans[0].uuid}/`,
    attributes: {
      name,
      template: `${base}/api/vmware-templates/${market.templates[0].uuid}/`,
      cores_per_socket: 1,
      networks: [{ url: `${base}/api/vmware-networks/${placement.network.uuid}/` }],
      folder: `${base}/api/vmware-folders/${placement.folder.uuid}/`,
    },
    limits: { cpu: 2, ram: 2048 },
    accepting_terms_of_service: true,
  });
  const deadline = Date.now() + 120_000;
  let done: Order;
  do {
    await new Promise((r) => setTimeout(r, 500));
    done = await market.api.ok<Order>('member', 'GET', `/api/marketplace-orders/${order.uuid}/`);
  } while (!['done', 'erred'].includes(done.state) && Date.now() < deadline);
  if (done.state !== 'done') throw new Error(`order of ${name}: ${done.state} ${done.error_message}`);
  return market.api.ok<Vm>('member', 'GET', `/api/vmware-virtual-machine/${done.resource_uuid}/`);
}

/** Every VmChanged of one VM a stream received, in order. */
export function vmChanges(stream: SseClient, vmUuid: string): VmChangedData[] {
  return stream.data<VmChangedData>('VmChanged').filter((changed) => changed.uuid === vmUuid);
}

/** The VmChanged that ended an operation (done or erred), once the stream has it. */
export async function operationEnd(
  stream: SseClient,
  operation: { uuid: string; vm_uuid: string },
  timeoutMs = 30_000,
): Promise<VmChangedData> {
  const ended = () =>
    vmChanges(stream, operation.vm_uuid).find(
      (changed) =>
        changed.operation?.uuid === operation.uuid && ['done', 'erred'].includes(changed.operation.state),
    );
  await stream.waitFor(() => ended() !== undefined, timeoutMs, `the end of operation ${operation.uuid}`);
  return ended() as VmChangedData;
}

/** Polls `read` until `done` holds of its answer (state in vcsim or REST that no event announces). */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`${what} not met in ${timeoutMs} ms; last: ${JSON.stringify(value).slice(0, 1_000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The VmChanged streams of a member of the customer's project (`project-member`) and of another
 * organisation's owner (`outsider`), both users made here.
 */
export async function vmWatchers(
  market: VsphereMarketplace,
): Promise<{ project: SseClient; outsider: SseClient }> {
  await market.api.user('project-member', 'staff');
  await market.api.ok('staff', 'POST', `/api/projects/${market.project.uuid}/add_user/`, {
    user: market.api.users['project-member'],
    role: 'PROJECT.MEMBER',
  });
  await market.outsider();
  const open = (who: string) =>
    SseClient.open(`${market.api.base}/api/events?type=VmChanged`, { token: market.api.tokens[who] });
  return { project: await open('project-member'), outsider: await open('outsider') };
}
