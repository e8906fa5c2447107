import {
  API_PATHS,
  ASSIGNMENT_KINDS,
  ASSIGNMENT_OPERATIONS,
  assignmentViewSchema,
  CLUSTERS_LIST,
  clusterViewSchema,
  DATASTORES_LIST,
  datastoreViewSchema,
  FOLDERS_LIST,
  folderViewSchema,
  LIMITS_GET,
  limitsViewSchema,
  NETWORKS_LIST,
  networkViewSchema,
  TEMPLATES_LIST,
  templateViewSchema,
  type AssignmentKind,
} from '@app/contracts';
import { z } from 'zod';
import type { Links } from './links';
import { apiRoute as route, type AnyOperation, type ApiRoute, type Presenter } from './route';

const tag = 'vmware';

/** vCenter objects as the adapter reports them, with a link to their offering. */
function inventory(schema: z.ZodObject): Presenter<{ offering_uuid: string }> {
  return {
    schema: schema.extend({ offering: z.url() }),
    present: (view, links: Links) => ({
      ...view,
      offering: links.resource('marketplace-public-offerings', view.offering_uuid),
    }),
  };
}

function list(path: string, operation: AnyOperation, schema: z.ZodObject, what: string): ApiRoute {
  const collection = path.split('/')[2];
  return route(
    'get',
    path,
    operation,
    { operationId: `${collection.replace(/-/g, '_')}_list`, summary: what, tag },
    { resource: inventory(schema), list: true },
  );
}

// Waldur's model names for the assignments staff make in Django's admin, as REST collections.
const ASSIGNMENT_COLLECTIONS: Record<AssignmentKind, string> = {
  clusters: 'vmware-customer-clusters',
  networks: 'vmware-customer-networks',
  'existing-vm-networks': 'vmware-customer-network-pairs',
  datastores: 'vmware-customer-datastores',
  folders: 'vmware-customer-folders',
};

const assignment: Presenter<object> = { schema: assignmentViewSchema, present: (view) => view };

function assignmentRoutes(kind: AssignmentKind): ApiRoute[] {
  const collection = ASSIGNMENT_COLLECTIONS[kind];
  const base = `/api/${collection}/`;
  const id = collection.replace(/-/g, '_');
  const ops = ASSIGNMENT_OPERATIONS[kind];
  // The adapter owns no customers: the gateway checks the linked one exists (as the caller sees it).
  const withCustomer = (built: ApiRoute): ApiRoute => ({ ...built, customerLink: 'customer' });
  return [
    route(
      'get',
      base,
      ops.list,
      { operationId: `${id}_list`, summary: `Organisations' ${kind} (staff)`, tag },
      { resource: assignment, list: true },
    ),
    withCustomer(
      route(
        'post',
        base,
        ops.add,
        {
          operationId: `${id}_create`,
          summary: `Assign ${kind} to an organisation (staff)`,
          tag,
          status: 201,
        },
        { resource: assignment },
      ),
    ),
    route('post', `${base}remove/`, ops.remove, {
      operationId: `${id}_remove`,
      summary: `Take ${kind} back from an organisation (staff)`,
      tag,
    }),
  ];
}

/**
 * The vSphere inventory an organisation may use (what it is assigned, or the seed's defaults), the
 * offering's limits, and the assignments staff make: all answered by the vSphere adapter.
 */
export const VSPHERE_ROUTES: readonly ApiRoute[] = [
  list(API_PATHS.vmwareTemplates, TEMPLATES_LIST, templateViewSchema, 'VM templates of the Content Library'),
  list(
    API_PATHS.vmwareClusters,
    CLUSTERS_LIST,
    clusterViewSchema,
    'Clusters the organisation may place VMs in',
  ),
  list(API_PATHS.vmwareNetworks, NETWORKS_LIST, networkViewSchema, 'Networks the organisation may use'),
  list(
    API_PATHS.vmwareDatastores,
    DATASTORES_LIST,
    datastoreViewSchema,
    'Datastores the organisation may use',
  ),
  list(API_PATHS.vmwareFolders, FOLDERS_LIST, folderViewSchema, 'VM folders the organisation may use'),
  route(
    'get',
    API_PATHS.vmwareLimits,
    LIMITS_GET,
    { operationId: 'vmware_limits_retrieve', summary: "The offering's maximums per VM (MiB)", tag },
    { resource: { schema: limitsViewSchema, present: (view: object) => view } },
  ),
  ...ASSIGNMENT_KINDS.flatMap(assignmentRoutes),
];
