import {
  DEMO_CLUSTER,
  DEMO_CUSTOMER,
  DEMO_LIMITS,
  DEMO_OFFERING,
  DEMO_PRICES,
  DEMO_PROJECT,
  DEMO_PROVIDER,
} from './demo-objects';
import type { GatewayClient, Json } from './gateway-client';

/** Where the demo's vCenter is and how the provider logs in to it. */
export interface DemoVcenter {
  /** The vcsim front's address: vCenter 8's `/sdk` and `/api`. */
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** The CA that signed the front's certificate: TLS stays verified, as against a real vCenter. */
  readonly caPem: string;
}

/** A template published in the demo's vCenter: its library item id is the inventory's backend_id. */
export interface PublishedTemplate {
  readonly name: string;
  readonly id: string;
}

interface Named extends Json {
  uuid: string;
  name: string;
}
interface Offering extends Named {
  state: string;
  plans: (Named & { archived: boolean; prices: Record<string, string> })[];
}
interface Template extends Named {
  backend_id: string;
  os: string;
  os_version: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Registers npm start's demo through the gateway's public REST API, as a provider and staff would
 * by hand: a provider organisation, a customer organisation with a project, and an active vSphere
 * offering on the demo's vCenter with prices. Every object is looked up by name first, so a run on
 * a database that has them changes nothing but the connection (vcsim is new at every start) and
 * creates no second copy.
 */
export class DemoRegistration {
  constructor(
    private readonly api: GatewayClient,
    private readonly log: (message: string) => void,
  ) {}

  async run(
    vcenter: DemoVcenter,
    templates: readonly PublishedTemplate[],
    syncTimeoutMs: number,
  ): Promise<Offering> {
    const provider = await this.customer(DEMO_PROVIDER);
    const customer = await this.customer(DEMO_CUSTOMER);
    await this.project(customer);
    const offering = await this.offering(provider);
    await this.price(offering);
    await this.connect(offering, vcenter);
    await this.waitForTemplates(offering, templates, syncTimeoutMs);
    return this.activate(offering);
  }

  private async customer(fields: { name: string; description: string }): Promise<Named> {
    const found = (await this.api.list<Named>('customers', { name: fields.name })).find(
      (c) => c.name === fields.name,
    );
    if (found !== undefined) {
      this.log(`organisation "${fields.name}" exists (${found.uuid})`);
      return found;
    }
    const created = await this.api.ok<Named>('POST', '/api/customers/', fields);
    this.log(`organisation "${fields.name}" created (${created.uuid})`);
    return created;
  }

  private async project(customer: Named): Promise<Named> {
    const found = (
      await this.api.list<Named>('projects', { customer_uuid: customer.uuid, name: DEMO_PROJECT.name })
    ).find((p) => p.name === DEMO_PROJECT.name);
    if (found !== undefined) {
      this.log(`project "${DEMO_PROJECT.name}" exists (${found.uuid})`);
      return found;
    }
    const created = await this.api.ok<Named>('POST', '/api/projects/', {
      ...DEMO_PROJECT,
      customer: this.api.link('customers', customer.uuid),
    });
    this.log(`project "${DEMO_PROJECT.name}" of "${customer.name}" created (${created.uuid})`);
    return created;
  }

  /** The provider's demo offering that is not archived, or a new Draft with its Default plan. */
  private async offering(provider: Named): Promise<Offering> {
    const found = (
      await this.api.list<Offering>('marketplace-provider-offerings', {
        customer_uuid: provider.uuid,
        type: DEMO_OFFERING.type,
        name: DEMO_OFFERING.name,
      })
    ).find((o) => o.name === DEMO_OFFERING.name && o.state !== 'Archived');
    if (found !== undefined) {
      this.log(`offering "${DEMO_OFFERING.name}" exists (${found.uuid}, ${found.state})`);
      return found;
    }
    const created = await this.api.ok<Offering>('POST', '/api/marketplace-provider-offerings/', {
      ...DEMO_OFFERING,
      customer: this.api.link('customers', provider.uuid),
    });
    this.log(`offering "${DEMO_OFFERING.name}" created (${created.uuid}, ${created.state})`);
    return created;
  }

  private async price(offering: Offering): Promise<void> {
    const plan = offering.plans.find((p) => p.name === 'Default' && !p.archived);
    if (plan === undefined) throw new Error(`offering ${offering.uuid} has no Default plan`);
    const priced = await this.api.ok<{ prices: Record<string, string> }>(
      'POST',
      `/api/marketplace-plans/${plan.uuid}/update_prices/`,
      { prices: DEMO_PRICES },
    );
    this.log(`Default plan priced per month: ${JSON.stringify(priced.prices)}`);
  }

  /**
   * Saves the whole connection at every start (the front's address may differ from the last run's);
   * the adapter starts a synchronisation with each save, so no separate `sync/` is asked: it would
   * only queue a second run behind this one.
   */
  private async connect(offering: Offering, vcenter: DemoVcenter): Promise<void> {
    const integration = await this.api.ok<Json>(
      'POST',
      `/api/marketplace-provider-offerings/${offering.uuid}/update_integration/`,
      {
        service_attributes: {
          backend_url: vcenter.url,
          username: vcenter.username,
          password: vcenter.password,
          default_cluster_label: DEMO_CLUSTER,
          verify_ssl: true,
          ca_pem: vcenter.caPem,
          ...DEMO_LIMITS,
        },
      },
    );
    this.log(
      `vCenter ${String(integration.backend_url)} saved (TLS verified with the local CA); ` +
        `integration ${String(integration.state)}, synchronisation ${String(integration.sync_state)}`,
    );
  }

  /**
   * Waits until the offering lists every template published in this vcsim (by library item id):
   * a synchronisation with working credentials has then reached this vcsim. The templates of the
   * last start's vcsim carry other ids, so they never satisfy the wait. (The REST API has no
   * side-effect-free read of the integration's state: `sync/` and `update_integration/` answer it
   * but start a run. Run again by hand against the same vcsim, the wait is satisfied at once by the
   * templates already imported.)
   */
  private async waitForTemplates(
    offering: Offering,
    expected: readonly PublishedTemplate[],
    timeoutMs: number,
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const listed = await this.api.list<Template>('vmware-templates', { offering_uuid: offering.uuid });
      const ids = new Set(listed.map((t) => t.backend_id));
      if (expected.every((t) => ids.has(t.id))) {
        const names = listed.map((t) => `${t.name} (${t.os} ${t.os_version})`).join(', ');
        this.log(`synchronised: ${listed.length} templates: ${names}`);
        return;
      }
      if (Date.now() > deadline) throw await this.syncTimeout(offering, expected, listed, timeoutMs);
      await sleep(250);
    }
  }

  /** Why the templates did not arrive: the integration's state and error, as `sync/` reports them. */
  private async syncTimeout(
    offering: Offering,
    expected: readonly PublishedTemplate[],
    listed: readonly Template[],
    timeoutMs: number,
  ): Promise<Error> {
    const state = await this.api.call('POST', `/api/marketplace-provider-offerings/${offering.uuid}/sync/`);
    return new Error(
      `the offering did not list the templates ${expected.map((t) => t.name).join(', ')} within ` +
        `${timeoutMs} ms (it lists ${listed.length}); integration: ${JSON.stringify(state.body)}`,
    );
  }

  private async activate(offering: Offering): Promise<Offering> {
    const current = await this.api.ok<Offering>(
      'GET',
      `/api/marketplace-provider-offerings/${offering.uuid}/`,
    );
    if (current.state === 'Active') {
      this.log(`offering "${current.name}" is Active`);
      return current;
    }
    // 409 (GatewayError) while the integration is not OK, with the adapter's reason.
    const active = await this.api.ok<Offering>(
      'POST',
      `/api/marketplace-provider-offerings/${offering.uuid}/activate/`,
    );
    this.log(`offering "${active.name}" activated`);
    return active;
  }
}
