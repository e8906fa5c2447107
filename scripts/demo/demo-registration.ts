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
import { outcomeSince, type SyncTimes } from './sync-outcome';

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
interface Integration extends SyncTimes {
  sync_state: string;
  counts: Record<string, number>;
  skipped: unknown[];
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
    const savedAt = await this.connect(offering, vcenter);
    const integration = await this.waitForSync(offering, savedAt, syncTimeoutMs);
    await this.checkTemplates(offering, templates, integration);
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
   * Saves the whole connection at every start (the front's address may differ from the last run's)
   * and answers the save's time. The adapter starts a synchronisation with each save, so no separate
   * `sync/` is asked: it would only queue a second run behind this one.
   */
  private async connect(offering: Offering, vcenter: DemoVcenter): Promise<string> {
    const integration = await this.api.ok<Json & { modified: string }>(
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
    return integration.modified;
  }

  /** Waits for the synchronisation the save started (`GET .../integration/`); fails with its error. */
  private async waitForSync(offering: Offering, savedAt: string, timeoutMs: number): Promise<Integration> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const view = await this.api.ok<Integration>(
        'GET',
        `/api/marketplace-provider-offerings/${offering.uuid}/integration/`,
      );
      const outcome = outcomeSince(view, savedAt);
      if (outcome?.ok) {
        this.log(`synchronised: ${JSON.stringify(view.counts)}`);
        return view;
      }
      if (outcome !== undefined) throw new Error(`the synchronisation failed: ${outcome.message}`);
      if (Date.now() > deadline)
        throw new Error(
          `no synchronisation finished within ${timeoutMs} ms of the save ` +
            `(integration ${view.state}, synchronisation ${view.sync_state})`,
        );
      await sleep(250);
    }
  }

  /** The templates just published in vcsim are listed (by library item id), or why they are not. */
  private async checkTemplates(
    offering: Offering,
    expected: readonly PublishedTemplate[],
    integration: Integration,
  ): Promise<void> {
    const listed = await this.api.list<Template>('vmware-templates', { offering_uuid: offering.uuid });
    const ids = new Set(listed.map((t) => t.backend_id));
    const missing = expected.filter((t) => !ids.has(t.id)).map((t) => t.name);
    if (missing.length > 0)
      throw new Error(
        `synchronised, but the templates ${missing.join(', ')} are not listed ` +
          `(skipped: ${JSON.stringify(integration.skipped)})`,
      );
    this.log(`templates: ${listed.map((t) => `${t.name} (${t.os} ${t.os_version})`).join(', ')}`);
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
