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
  INVENTORY_OBJECT_GET,
  folderViewSchema,
  LIMITS_GET,
  limitsViewSchema,
  NETWORKS_LIST,
  networkViewSchema,
  TEMPLATE_GET,
  TEMPLATES_LIST,
  templateViewSchema,
  type AssignmentKind,
} from '@app/contracts';
import { z } from 'zod';
import type { Links } from './links';
import { model } from './openapi-models';
import { apiRoute as route, type AnyOperation, type ApiRoute, type Presenter } from './route';

const tag = 'vmware';

/**
 * vCenter objects as the adapter reports them: their own `url` (`/api/vmware-<kind>/{uuid}/`, as
 * Waldur's VmwareTemplate, VmwareCluster, ... have) and a link to their offering; `name` is
 * Waldur's model.
 */
function inventory(
  collection: string,
  [name, schema]: [string, z.ZodObject],
): Presenter<{ uuid: string; offering_uuid: string }> {
  return {
    schema: model(name, schema.extend({ url: z.url(), offering: z.url() })),
    present: (view, links: Links) => ({
      url: links.resource(collection, view.uuid),
      ...view,
      offering: links.resource('marketplace-public-offerings', view.offering_uuid),
    }),
  };
}

/** A kind's list and its retrieve (where every object's `url` points), as Waldur names them. */
function inventoryRoutes(
  collection: string,
  operations: { list: AnyOperation; get: AnyOperation },
  schema: [string, z.ZodObject],
  what: string,
): ApiRoute[] {
  const id = collection.replace(/-/g, '_');
  const presenter = inventory(collection, schema);
  return [
    route(
      'get',
      `/api/${collection}/`,
      operations.list,
      { operationId: `${id}_list`, summary: what, tag },
      { resource: presenter, list: true },
    ),
    route(
      'get',
      `/api/${collection}/{uuid}/`,
      operations.get,
      { operationId: `${id}_retrieve`, summary: `One of them (where its url points)`, tag },
      { resource: presenter },
    ),
  ];
}

// Waldur's model names for the assignments staff make in Django's admin, as REST collections.
const ASSIGNMENT_COLLECTIONS: Record<AssignmentKind, string> = {
  clusters: 'vmware-customer-clusters',
  networks: 'vmware-customer-networks',
  'existing-vm-networks': 'vmware-customer-network-pairs',
  datastores: 'vmware-customer-datastores',
  folders: 'vmware-customer-folders',
};

const assignment: Presenter<object> = {
  schema: model('VmwareAssignment', assignmentViewSchema),
  present: (view) => view,
};

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
          idempotent: true,
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
  ...inventoryRoutes(
    'vmware-templates',
    { list: TEMPLATES_LIST, get: TEMPLATE_GET },
    ['VmwareTemplate', templateViewSchema],
    'VM templates of the Content Library',
  ),
  ...inventoryRoutes(
    'vmware-clusters',
    { list: CLUSTERS_LIST, get: INVENTORY_OBJECT_GET.clusters },
    ['VmwareCluster', clusterViewSchema],
    'Clusters the organisation may place VMs in',
  ),
  ...inventoryRoutes(
    'vmware-networks',
    { list: NETWORKS_LIST, get: INVENTORY_OBJECT_GET.networks },
    ['VmwareNetwork', networkViewSchema],
    'Networks the organisation may use',
  ),
  ...inventoryRoutes(
    'vmware-datastores',
    { list: DATASTORES_LIST, get: INVENTORY_OBJECT_GET.datastores },
    ['VmwareDatastore', datastoreViewSchema],
    'Datastores the organisation may use',
  ),
  ...inventoryRoutes(
    'vmware-folders',
    { list: FOLDERS_LIST, get: INVENTORY_OBJECT_GET.folders },
    ['VmwareFolder', folderViewSchema],
    'VM folders the organisation may use',
  ),
  route(
    'get',
    API_PATHS.vmwareLimits,
    LIMITS_GET,
    { operationId: 'vmware_limits_retrieve', summary: "The offering's maximums per VM (MiB)", tag },
    { resource: { schema: model('VmwareLimit', limitsViewSchema), present: (view: object) => view } },
  ),
  ...ASSIGNMENT_KINDS.flatMap(assignmentRoutes),
];
