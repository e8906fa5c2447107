import type {
  CustomerView,
  OrderView,
  ProjectView,
  ResourceView,
  RoleGrantView,
  UserView,
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

/** Each resource's public form: its view plus its own `url` and the links to what it refers to. */
export const present = {
  customer: (view: CustomerView, links: Links) => ({ url: links.resource('customers', view.uuid), ...view }),
  project: (view: ProjectView, links: Links) => ({
    url: links.resource('projects', view.uuid),
    ...view,
    customer: links.resource('customers', view.customer_uuid),
  }),
  user: (view: UserView, links: Links) => ({ url: links.resource('users', view.uuid), ...view }),
  grant: (view: RoleGrantView, links: Links) => ({ ...view, user: links.resource('users', view.user_uuid) }),
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
    offering: links.resource('marketplace-public-offerings', view.offering_uuid),
    plan: view.plan_uuid === null ? null : links.resource('marketplace-plans', view.plan_uuid),
    project: links.resource('projects', view.project_uuid),
    customer: links.resource('customers', view.customer_uuid),
  }),
};
