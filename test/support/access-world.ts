import type { RoleFacts, Subject } from './access-audience';
import type { Json } from './api-session';
import { insertToken } from './rest-client';
import { SseClient } from './sse-client';
import { eventually, orderVm, type Disk, type Port, type Vm } from './virtual-machines';
import { VsphereMarketplace } from './vsphere-marketplace';

type Named = Json & { uuid: string; name: string };

/** The roles the matrix asks as: each a user made here (`org-owner` is the marketplace's `member`). */
export const MATRIX_ROLES = [
  'staff',
  'org-owner',
  'project-manager',
  'project-admin',
  'project-member',
  'other-project-member',
  'provider-owner',
  'no-role',
  'anonymous',
] as const;
export type MatrixRole = (typeof MATRIX_ROLES)[number];

/** The user name of each role in the marketplace's session (anonymous has none). */
const USER_OF: Record<Exclude<MatrixRole, 'anonymous'>, string> = {
  staff: 'staff',
  'org-owner': 'member',
  'project-manager': 'p1-manager',
  'project-admin': 'p1-admin',
  'project-member': 'p1-member',
  'other-project-member': 'p2-member',
  'provider-owner': 'provider-owner',
  'no-role': 'no-role',
};

/** The object a route's `{uuid}` names, and the values of its other path parameters (`{plan_uuid}`). */
export interface WorldObject {
  uuid: string;
  subject: Subject;
  params?: Record<string, string>;
}

export const MATRIX_PASSWORD = 'Matrix-pass-2026-x';

/**
 * The world the access matrix runs in: Org A (the marketplace's Demo Customer) with projects P1
 * (Demo Project) and P2, Org B with P3, the provider organisation owning the VMware offering on
 * vcsim, a VM ordered in P1 (its order, its marketplace resource, a disk and a port), and one user
 * per role. `staffStream` and `otherProjectStream` were opened before the VM was ordered.
 */
export class AccessWorld {
  p2!: Named;
  orgB!: Named;
  p3!: Named;
  provider!: string;
  vm!: Vm;
  order!: Named;
  disk!: Disk;
  port!: Port;
  /** A snapshot of the VM, taken by staff (the offering allows 32, so allowed creates never run out). */
  snapshot!: Named;
  staffStream!: SseClient;
  otherProjectStream!: SseClient;
  /** A Draft VMware offering of the same provider, synchronised from the same vcsim. */
  draft!: Named & { plans: Named[] };
  draftTemplate!: Named;
  inventory: Record<'cluster' | 'network' | 'datastore' | 'folder', Named> = {} as never;
  /** The offering's default cluster (by name), the cluster organisations without assignments get. */
  private defaultClusterLabel = '';

  private constructor(readonly market: VsphereMarketplace) {}

  get api() {
    return this.market.api;
  }
  get orgA(): Named {
    return this.market.customer;
  }
  get p1(): Named {
    return this.market.project;
  }
  get offering() {
    return this.market.offering;
  }
  url(collection: string, uuid: string): string {
    return `${this.api.base}/api/${collection}/${uuid}/`;
  }
  userUuid(name: string): string {
    return this.api.users[name];
  }
  token(role: MatrixRole): string | null {
    return role === 'anonymous' ? null : this.api.tokens[USER_OF[role]];
  }
  /** A new token for a role's user (after a call revoked its tokens). */
  async renewToken(role: Exclude<MatrixRole, 'anonymous'>): Promise<void> {
    const name = USER_OF[role];
    this.api.tokens[name] = await insertToken(this.market.db.url, this.api.users[name]);
  }

  static async start(label: string): Promise<AccessWorld> {
    const world = new AccessWorld(await VsphereMarketplace.start(label));
    await world.populate();
    return world;
  }

  private async populate(): Promise<void> {
    const { api } = this;
    const placement = await this.market.vmPlacement();
    const networks = await this.market.inventory('vmware-networks');
    const vmNetwork = networks.find((n) => n.name === 'VM Network') as Named;
    // New adapters of existing VMs go on VM Network (create_port needs it assigned).
    await api.ok('staff', 'POST', '/api/vmware-customer-network-pairs/', {
      customer: this.orgA.uuid,
      network: vmNetwork.uuid,
    });
    this.inventory = {
      cluster: (await this.market.inventory('vmware-clusters'))[0],
      network: vmNetwork,
      datastore: (await this.market.inventory('vmware-datastores'))[0],
      folder: placement.folder,
    };
    this.provider = this.offering.customer_uuid as string;
    const integration = await api.ok<{ default_cluster_label: string }>(
      'staff',
      'GET',
      `/api/marketplace-provider-offerings/${this.offering.uuid}/integration/`,
    );
    this.defaultClusterLabel = integration.default_cluster_label;
    this.p2 = await api.ok<Named>('staff', 'POST', '/api/projects/', {
      name: 'P2',
      customer: this.url('customers', this.orgA.uuid),
    });
    this.orgB = await api.ok<Named>('staff', 'POST', '/api/customers/', { name: 'Org B' });
    this.p3 = await api.ok<Named>('staff', 'POST', '/api/projects/', {
      name: 'P3',
      customer: this.url('customers', this.orgB.uuid),
    });
    for (const name of ['p1-manager', 'p1-admin', 'p1-member', 'p2-member', 'provider-owner', 'no-role'])
      await api.user(name, 'staff');
    await api.user('grantee', 'staff');
    await api.user('login-user', 'staff');
    await api.ok('staff', 'POST', `/api/users/${this.userUuid('login-user')}/change_password/`, {
      new_password: MATRIX_PASSWORD,
    });
    const grant = (scope: 'projects' | 'customers', uuid: string, user: string, role: string) =>
      api.ok('staff', 'POST', `/api/${scope}/${uuid}/add_user/`, { user: this.userUuid(user), role });
    await grant('projects', this.p1.uuid, 'p1-manager', 'PROJECT.MANAGER');
    await grant('projects', this.p1.uuid, 'p1-admin', 'PROJECT.ADMIN');
    await grant('projects', this.p1.uuid, 'p1-member', 'PROJECT.MEMBER');
    await grant('projects', this.p2.uuid, 'p2-member', 'PROJECT.MEMBER');
    await grant('projects', this.p1.uuid, 'grantee', 'PROJECT.ADMIN');
    await grant('customers', this.provider, 'provider-owner', 'CUSTOMER.OWNER');

    this.draft = await api.ok('staff', 'POST', '/api/marketplace-provider-offerings/', {
      name: 'Draft VMs',
      type: 'VMware.VirtualMachine',
      customer: this.url('customers', this.provider),
    });
    const sim = this.market.sim;
    await api.ok(
      'staff',
      'POST',
      `/api/marketplace-provider-offerings/${this.draft.uuid}/update_integration/`,
      {
        service_attributes: {
          backend_url: sim.url,
          username: sim.username,
          password: sim.password,
          verify_ssl: true,
          ca_pem: sim.caPem,
        },
      },
    );

    // Streams that follow the VM's order from its start: what P2's member must never receive.
    const open = (role: MatrixRole) =>
      SseClient.open(`${api.base}/api/events`, { token: this.token(role) as string });
    this.staffStream = await open('staff');
    this.otherProjectStream = await open('other-project-member');

    this.vm = await orderVm(this.market, 'e2e-matrix-1', placement);
    [this.order] = await api.ok<Named[]>(
      'staff',
      'GET',
      `/api/marketplace-orders/?resource_uuid=${this.vm.marketplace_resource_uuid}`,
    );
    [this.disk] = this.vm.disks;
    [this.port] = this.vm.ports;
    await api.ok(
      'staff',
      'POST',
      `/api/marketplace-provider-offerings/${this.market.offering.uuid}/update_integration/`,
      { service_attributes: { max_snapshots: 32 } },
    );
    await api.ok('staff', 'POST', `/api/vmware-virtual-machine/${this.vm.uuid}/create_snapshot/`, {
      name: 'matrix-world',
    });
    [this.snapshot] = await eventually(
      () => api.ok<Named[]>('staff', 'GET', `/api/vmware-virtual-machine/${this.vm.uuid}/snapshots/`),
      (snapshots) => snapshots.length > 0,
      30_000,
      "the world VM's snapshot",
    );
    [this.draftTemplate] = await eventually(
      () => api.ok<Named[]>('staff', 'GET', `/api/vmware-templates/?offering_uuid=${this.draft.uuid}`),
      (templates) => templates.length > 0,
      60_000,
      "the Draft offering's templates",
    );
  }

  /** What each role holds in this world. */
  facts(role: MatrixRole): RoleFacts | null {
    if (role === 'anonymous') return null;
    const p1 = { customer: this.orgA.uuid };
    const projects = new Map<string, { customer: string; role: string }>();
    const owned = new Set<string>();
    if (role === 'org-owner') owned.add(this.orgA.uuid);
    if (role === 'provider-owner') owned.add(this.provider);
    if (role === 'project-manager') projects.set(this.p1.uuid, { ...p1, role: 'PROJECT.MANAGER' });
    if (role === 'project-admin') projects.set(this.p1.uuid, { ...p1, role: 'PROJECT.ADMIN' });
    if (role === 'project-member') projects.set(this.p1.uuid, { ...p1, role: 'PROJECT.MEMBER' });
    if (role === 'other-project-member') projects.set(this.p2.uuid, { ...p1, role: 'PROJECT.MEMBER' });
    return {
      userUuid: this.userUuid(USER_OF[role]),
      staff: role === 'staff',
      ownedCustomers: owned,
      projects,
    };
  }

  /** The subject of a route on each collection: the world object its `{uuid}` names. */
  subjects(): Record<string, WorldObject> {
    const p1 = { project: { uuid: this.p1.uuid, customer: this.orgA.uuid } };
    const offering = { provider: this.provider, offeringActive: true };
    const order = { ...p1, provider: this.provider, creator: this.userUuid('member') };
    return {
      customers: { uuid: this.orgA.uuid, subject: { customer: this.orgA.uuid } },
      projects: { uuid: this.p1.uuid, subject: p1 },
      users: {
        uuid: this.userUuid('p1-member'),
        subject: { user: { uuid: this.userUuid('p1-member'), customers: [], projects: [p1.project] } },
      },
      'marketplace-provider-offerings': { uuid: this.offering.uuid, subject: offering },
      'marketplace-public-offerings': {
        uuid: this.offering.uuid,
        subject: offering,
        params: { plan_uuid: this.offering.plans[0].uuid },
      },
      'marketplace-plans': { uuid: this.offering.plans[0].uuid, subject: offering },
      'service-settings': { uuid: this.offering.uuid, subject: offering },
      'vmware-limits': { uuid: this.offering.uuid, subject: offering },
      'vmware-templates': { uuid: this.market.templates[0].uuid, subject: offering },
      ...this.inventorySubjects(),
      'marketplace-orders': { uuid: this.order.uuid, subject: order },
      'marketplace-resources': { uuid: this.vm.marketplace_resource_uuid, subject: order },
      'vmware-virtual-machine': { uuid: this.vm.uuid, subject: p1 },
      'vmware-disks': { uuid: this.disk.uuid, subject: p1 },
      'vmware-ports': { uuid: this.port.uuid, subject: p1 },
      'vmware-snapshots': { uuid: this.snapshot.uuid, subject: p1 },
    };
  }

  /**
   * The vCenter objects, with the organisations that may use them as the world set it up: the
   * network (VM Network) and the folder are assigned to org A; organisations without an assignment
   * of a kind get its default (the first folder and datastore vCenter lists, the cluster the
   * offering names), networks have none. Org B and the provider have no assignments.
   */
  private inventorySubjects(): Record<string, WorldObject> {
    const everyone = [this.orgA.uuid, this.orgB.uuid, this.provider];
    const withoutAssignments = [this.orgB.uuid, this.provider];
    const cluster = this.inventory.cluster;
    const object = (named: Named, users: string[]): WorldObject => ({ uuid: named.uuid, subject: { users } });
    return {
      'vmware-clusters': object(cluster, cluster.name === this.defaultClusterLabel ? everyone : []),
      'vmware-networks': object(this.inventory.network, [this.orgA.uuid]),
      // Both the first listed: org A's by assignment (the folder) or as its default (the datastore).
      'vmware-datastores': object(this.inventory.datastore, everyone),
      'vmware-folders': object(this.inventory.folder, [this.orgA.uuid, ...withoutAssignments]),
    };
  }

  /** The Draft offering's objects, on the collections whose rules depend on the offering's state. */
  draftSubjects(): Record<string, WorldObject> {
    const draft = { provider: this.provider, offeringActive: false };
    return {
      'marketplace-public-offerings': {
        uuid: this.draft.uuid,
        subject: draft,
        params: { plan_uuid: this.draft.plans[0].uuid },
      },
      'marketplace-plans': { uuid: this.draft.plans[0].uuid, subject: draft },
      'service-settings': { uuid: this.draft.uuid, subject: draft },
      'vmware-limits': { uuid: this.draft.uuid, subject: draft },
      'vmware-templates': { uuid: this.draftTemplate.uuid, subject: draft },
    };
  }

  async stop(): Promise<void> {
    this.staffStream?.close();
    this.otherProjectStream?.close();
    await this.market.stop();
  }
}
