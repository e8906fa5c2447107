import { randomBytes } from 'node:crypto';
import { ASSIGNMENT_FIELDS, type AssignmentKind } from '@app/contracts';
import { connectVim, type VimConnection } from '@app/vim25';
import type { VcsimLibrary } from '../../apps/vsphere-adapter/test/support/vcsim-library';
import { ApiSession } from './api-session';
import { AppProcess } from './app-process';
import { freePort } from './free-port';
import { createTestDatabase, type TestDatabase } from './test-database';
import { testEnv } from './test-env';
import { createTestNats, type TestNats } from './test-nats';
import type { VcsimWithFront } from './vcsim-front';
import { registerVcsimOffering, startVcsimWithTemplates, type Named } from './vcsim-offering';

export interface MarketplaceOptions {
  /** Templates to publish in vcsim's library before the offering synchronises (default one Ubuntu). */
  readonly templates?: readonly string[];
  /** Extra environment of the vSphere adapter (deploy timeouts, ...). */
  readonly adapterEnv?: Record<string, string>;
  /** Extra environment of every app. */
  readonly env?: Record<string, string>;
  /** Extra vcsim flags (a larger inventory: `['-cluster', '10', '-vm', '50']`). */
  readonly vcsimArgs?: readonly string[];
}

type AppKey = 'orderService' | 'adapter' | 'gateway';
const APP_NAMES = { orderService: 'order-service', adapter: 'vsphere-adapter', gateway: 'gateway' } as const;

/**
 * The whole system on vcsim, ready to take VM orders, registered through the public REST API the way
 * `npm start`'s demo is (scripts/demo): vcsim behind the vCenter 8 front with published templates;
 * the order service, the vSphere adapter and the gateway as processes on a database and NATS
 * namespace of their own; a provider organisation with an active, priced offering connected to the
 * vcsim and synchronised; a customer organisation with a project. Users: `staff`, and `member`, an
 * owner of the customer organisation.
 */
export class VsphereMarketplace {
  readonly apps: Record<AppKey, AppProcess>;
  private readonly appEnv: Record<AppKey, Record<string, string>>;
  offering!: Named & { plans: Named[] };
  customer!: Named;
  project!: Named;
  templates: Named[] = [];

  private constructor(
    readonly sim: VcsimWithFront,
    readonly library: VcsimLibrary,
    readonly db: TestDatabase,
    readonly nats: TestNats,
    readonly api: ApiSession,
    readonly env: Record<string, string>,
    adapterEnv: Record<string, string>,
    port: number,
  ) {
    this.appEnv = {
      orderService: env,
      adapter: { ...env, ...adapterEnv },
      gateway: { ...env, GATEWAY_PORT: String(port) },
    };
    this.apps = {
      orderService: new AppProcess('order-service', this.appEnv.orderService),
      adapter: new AppProcess('vsphere-adapter', this.appEnv.adapter),
      gateway: new AppProcess('gateway', this.appEnv.gateway),
    };
  }

  static async start(label: string, options: MarketplaceOptions = {}): Promise<VsphereMarketplace> {
    const vcsim = await startVcsimWithTemplates(
      `pw-${randomBytes(12).toString('hex')}`,
      options.templates,
      options.vcsimArgs,
    );
    const db = await createTestDatabase(label);
    const nats = await createTestNats(label);
    const port = await freePort();
    const env = {
      DATABASE_URL: db.url,
      NATS_URL: testEnv.natsUrl,
      NATS_NAMESPACE: nats.topology.namespace,
      OUTBOX_SWEEP_MS: '500',
      ...options.env,
    };
    const adapterEnv = {
      CREDENTIALS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      VSPHERE_SYNC_SWEEP_MS: '500',
      ...options.adapterEnv,
    };
    const api = new ApiSession(`http://127.0.0.1:${port}`, db.url);
    const system = new VsphereMarketplace(vcsim.sim, vcsim.library, db, nats, api, env, adapterEnv, port);
    await Promise.all([
      system.apps.orderService.start(),
      system.apps.adapter.start(),
      system.apps.gateway.start('gateway listening'),
    ]);
    await api.bootstrapStaff('staff', env);
    Object.assign(system, await registerVcsimOffering(api, vcsim));
    return system;
  }

  /** The inventory of `kind` (`vmware-networks`, `vmware-folders`, ...) of the offering, as staff see it. */
  async inventory(kind: string): Promise<Named[]> {
    return this.api.ok<Named[]>(
      'staff',
      'GET',
      `/api/${kind}/?offering_uuid=${this.offering.uuid}&page_size=100`,
    );
  }

  /** A SOAP session of the test's own to vcsim (through the front), to check VMs where they live. */
  vim(): Promise<VimConnection> {
    return connectVim({
      url: this.sim.url,
      caPem: this.sim.caPem,
      username: this.sim.username,
      password: this.sim.password,
    });
  }

  /**
   * Where the suites' VMs go: the distributed port group DC0_DVPG0 (for new VMs) and the first VM
   * folder, both assigned to the customer.
   */
  async vmPlacement(): Promise<{ network: Named; folder: Named }> {
    const network = (await this.inventory('vmware-networks')).find((n) => n.name === 'DC0_DVPG0');
    if (network === undefined) throw new Error('vcsim has no DC0_DVPG0 network');
    const folder = (await this.inventory('vmware-folders'))[0];
    await this.assign('networks', network.uuid);
    await this.assign('folders', folder.uuid);
    return { network, folder };
  }

  /** A user `name` owning an organisation of its own, which sees none of the customer's objects. */
  async outsider(name = 'outsider'): Promise<void> {
    const other = await this.api.ok<Named>('staff', 'POST', '/api/customers/', { name: `Org of ${name}` });
    await this.api.user(name, 'staff');
    await this.api.ok('staff', 'POST', `/api/customers/${other.uuid}/add_user/`, {
      user: this.api.users[name],
      role: 'CUSTOMER.OWNER',
    });
  }

  /** Assigns an inventory object to a customer, as staff do (`POST /api/vmware-customer-<kind>/`). */
  async assign(
    kind: Exclude<AssignmentKind, 'existing-vm-networks'>,
    objectUuid: string,
    customerUuid = this.customer.uuid,
  ): Promise<void> {
    await this.api.ok('staff', 'POST', `/api/vmware-customer-${kind}/`, {
      customer: customerUuid,
      [ASSIGNMENT_FIELDS[kind].field]: objectUuid,
    });
  }

  /**
   * Stops one app (SIGKILL: a crash) and starts it again with the same settings, plus `extraEnv`
   * (an order service without its relay, ...). Answers when the new process is ready.
   */
  async restart(
    app: AppKey,
    options: { signal?: NodeJS.Signals; extraEnv?: Record<string, string> } = {},
  ): Promise<void> {
    await this.apps[app].stop(options.signal ?? 'SIGKILL');
    this.apps[app] = new AppProcess(APP_NAMES[app], { ...this.appEnv[app], ...options.extraEnv });
    await this.apps[app].start(app === 'gateway' ? 'gateway listening' : undefined);
  }

  async stop(): Promise<void> {
    await Promise.all(Object.values(this.apps).map((app) => app.stop()));
    await this.library.close();
    await this.sim.stop();
    await this.nats.close();
    await this.db.drop();
  }
}
