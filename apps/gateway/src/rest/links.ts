import {
  VMWARE_VM_TYPE,
  type CustomerView,
  type OfferingView,
  type OrderView,
  type ProjectView,
  type ResourceView,
  type RoleGrantView,
  type UserView,
} from '@app/contracts';
import type { HttpRequest } from './http-types';

/** Absolute URLs of resources, built from the host the caller used (as Waldur's hyperlinks are). */
export class Links {
  constructor(readonly origin: string) {}

  static for(request: HttpRequest, fallbackOrigin: string): Links {
    const host = request.headers.host;
    // Only a plain host[:port] goes into URLs and Link headers: anything else could inject text.
    const plain =
      typeof host === 'string' && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-fA-F:.]+\](:\d{1,5})?$/.test(host);
    const origin = `${request.protocol}://${host}`;
    // ... and one that makes a URL: `host:99999` passes the pattern, and `new URL` would throw (a 500).
    return new Links(plain && URL.canParse(origin) ? origin : fallbackOrigin);
  }

  resource(collection: string, uuid: string): string {
    return `${this.origin}/api/${collection}/${uuid}/`;
  }
}

/**
 * Waldur's `scope_uuid` of an offering: its service settings, which `settings_uuid` filters the
 * vmware-* lists by. A vSphere offering's service settings are its vCenter integration, one per
 * offering and keyed by it, so the offering's own uuid; an offering processed by hand has none.
 */
export function offeringScopeUuid(view: Pick<OfferingView, 'uuid' | 'type'>): string | null {
  return view.type === VMWARE_VM_TYPE ? view.uuid : null;
}

/** Waldur's `scope` of an offering: the URL of those service settings (`/api/service-settings/{uuid}/`). */
export function offeringScope(view: Pick<OfferingView, 'uuid' | 'type'>, links: Links): string | null {
  const uuid = offeringScopeUuid(view);
  return uuid === null ? null : links.resource('service-settings', uuid);
}

/**
 * Waldur's `scope` of a marketplace resource: its backend object, here the VM an order made
 * (`/api/vmware-virtual-machine/{resource_uuid}/`); null until there is one, once it is gone
 * (Terminated, as Waldur's scope is deleted with it), and for offerings processed by hand (no
 * backend object this marketplace serves).
 */
function resourceScope(view: ResourceView, links: Links): string | null {
  if (view.resource_type !== VMWARE_VM_TYPE || view.resource_uuid === null) return null;
  if (view.state === 'Terminated') return null;
  return links.resource('vmware-virtual-machine', view.resource_uuid);
}

/** Each resource's public form: its view plus its own `url` and the links to what it refers to. */
export const present = {
  customer: (view: CustomerView, links: Links) => ({ url: links.resource('customers', view.uuid), ...view }),
  project: (view: ProjectView, links: Links) => ({
    url: links.resource('projects', view.uuid),
    ...view,
    customer: links.resource('customers', view.customer_uuid),
  }),
  user: (view: UserView, links: Links) => ({ url: links.resource('users', view.uuid), ...view }),
  /** Waldur's `expiration_time` too: grants here never expire, so it is always null. */
  grant: (view: RoleGrantView, links: Links) => ({
    ...view,
    user: links.resource('users', view.user_uuid),
    expiration_time: null,
  }),
  /** An order as REST and SSE show it: Waldur's links to its offering, plan, project and author. */
  order: (view: OrderView, links: Links) => ({
    url: links.resource('marketplace-orders', view.uuid),
    ...view,
    offering: links.resource('marketplace-public-offerings', view.offering_uuid),
    plan: view.plan_uuid === null ? null : links.resource('marketplace-plans', view.plan_uuid),
    project: links.resource('projects', view.project_uuid),
    customer: links.resource('customers', view.customer_uuid),
    marketplace_resource: links.resource('marketplace-resources', view.marketplace_resource_uuid),
    created_by: view.created_by_uuid === null ? null : links.resource('users', view.created_by_uuid),
  }),
  resource: (view: ResourceView, links: Links) => ({
    url: links.resource('marketplace-resources', view.uuid),
    ...view,
    // Waldur's backend_id is a string, empty until the backend has named the resource.
    backend_id: view.backend_id ?? '',
    offering: links.resource('marketplace-public-offerings', view.offering_uuid),
    plan: view.plan_uuid === null ? null : links.resource('marketplace-plans', view.plan_uuid),
    project: links.resource('projects', view.project_uuid),
    customer: links.resource('customers', view.customer_uuid),
    scope: resourceScope(view, links),
  }),
};
