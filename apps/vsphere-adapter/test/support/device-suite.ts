import { readVmFolders, type MoRef } from '@app/vim25';
import type { AdapterSuite } from './adapter-suite';
import {
  assign,
  envelopeOf,
  inventoryOf,
  orderSubmitted,
  publishOrder,
  validate,
  vmsOfOrder,
  waitForAnswer,
  type Listed,
} from './order-fixture';
import { ask, dataOf, saveAndSettle, staff } from './requests';

/**
 * Saves the suite's vcsim as the offering's vCenter (cluster DC0_C0, its CA trusted, `extra`
 * attributes besides), waits for the synchronisation, and answers the offering's inventory.
 */
export async function connectSuiteVcenter(
  suite: AdapterSuite,
  offering: string,
  extra: Record<string, unknown> = {},
): Promise<Awaited<ReturnType<typeof inventoryOf>>> {
  await saveAndSettle(suite.client, offering, {
    backend_url: suite.sim.url,
    username: suite.sim.username,
    password: suite.sim.password,
    ca_pem: suite.sim.caPem,
    default_cluster_label: 'DC0_C0',
    ...extra,
  });
  return inventoryOf(suite.client, offering);
}

/** Assigns a network to a customer for adapters of existing VMs (Waldur's CustomerNetworkPair). */
export async function assignForExistingVms(
  suite: AdapterSuite,
  customer: string,
  network: Listed,
): Promise<void> {
  dataOf(
    await ask(suite.client, 'vsphere.assignments.existing-vm-networks.add', {
      caller: staff(),
      params: {},
      query: {},
      body: { customer, network: network.uuid },
    }),
  );
}

/**
 * Assigns to `customer` the offering's VM folder of the suite's datacenter other than its root
 * `vm` folder (vcsim's `-folder 1`), and answers it.
 */
export async function assignSuiteFolder(
  suite: AdapterSuite,
  customer: string,
  inventory: Awaited<ReturnType<typeof inventoryOf>>,
): Promise<Listed> {
  const dcFolders = new Set((await readVmFolders(suite.library.connection)).map((f) => f.ref.value));
  const folder = [...inventory.folders.values()].find((f) => f.name !== 'vm' && dcFolders.has(f.backend_id))!;
  await assign(suite.client, 'folders', customer, folder.uuid);
  return folder;
}

/**
 * Orders a VM from `template` for `customer` (on `network`, in `folder` when given; 1 vCPU and
 * 1 GiB unless `limits` say otherwise) and waits for it: its vCenter uuid, moref and row uuid.
 */
export async function orderVm(
  suite: AdapterSuite,
  request: {
    offering: string;
    customer: string;
    name: string;
    template: Listed;
    network?: Listed;
    folder?: Listed;
    limits?: { cpu: number; ram: number };
    /** The ordering project (a fresh one unless given). */
    project?: string;
  },
): Promise<{ vmUuid: string; ref: MoRef; rowUuid: string }> {
  if (request.network !== undefined)
    await assign(suite.client, 'networks', request.customer, request.network.uuid);
  const validated = dataOf(
    await validate(suite.client, {
      offering_uuid: request.offering,
      customer_uuid: request.customer,
      attributes: {
        name: request.name,
        template: request.template.uuid,
        ...(request.network === undefined
          ? {}
          : { networks: [{ url: `/api/vmware-networks/${request.network.uuid}/` }] }),
        ...(request.folder === undefined ? {} : { folder: request.folder.uuid }),
      },
      limits: request.limits ?? { cpu: 1, ram: 1024 },
    }),
  );
  const order = orderSubmitted({
    offeringUuid: request.offering,
    customerUuid: request.customer,
    ...(request.project === undefined ? {} : { projectUuid: request.project }),
    ...validated,
  });
  await publishOrder(suite.nats, envelopeOf(order));
  const answer = await waitForAnswer(suite.nats, order.orderUuid);
  if (answer.type !== 'OrderDone') throw new Error(`the order erred: ${JSON.stringify(answer.data)}`);
  const [info] = await vmsOfOrder(suite.library.connection, order.orderUuid);
  const [{ uuid }]: { uuid: string }[] = await suite.adapter.runtime.dataSource.query(
    `SELECT "uuid" FROM "vsphere"."virtual_machines" WHERE "backend_uuid" = $1`,
    [info.instanceUuid],
  );
  return { vmUuid: info.instanceUuid!, ref: info.ref, rowUuid: uuid };
}
