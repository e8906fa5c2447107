import { z } from 'zod';
import { paginationQuery } from '../identity/operation';
import { hyperlink, messages } from '../identity/wire-fields';
import { vsphereOperation } from './vsphere-operation';

/**
 * Customer assignments of vCenter objects (Waldur's CustomerCluster, CustomerNetwork,
 * CustomerNetworkPair, CustomerDatastore, CustomerFolder, set by staff in Django's admin): which
 * clusters, networks for new VMs, networks for existing VMs, datastores and folders an organisation
 * may use. Core NATS request-reply, asked by the gateway, answered by the vSphere adapter; staff only
 * (`caller.is_staff`, anyone else 403).
 *
 *   `vsphere.assignments.<kind>.add`    body {customer, <field>} → RequestReply<AssignmentView>
 *   `vsphere.assignments.<kind>.remove` body {customer, <field>} → RequestReply<null> (404 if not assigned)
 *   `vsphere.assignments.<kind>.list`   query {customer_uuid?, offering_uuid?, page, page_size} → Page<AssignmentView>
 *
 * `customer` and the object are URLs or bare uuids. An unknown object is a 400 naming its field. The
 * adapter does not own customers: the gateway checks that the customer exists before it asks. In
 * basic mode an organisation has exactly one cluster, network (for new VMs), datastore and folder:
 * a second is refused with Waldur's message ("There are multiple clusters assigned to the current
 * customer.").
 */
export const ASSIGNMENT_KINDS = [
  'clusters',
  'networks',
  'existing-vm-networks',
  'datastores',
  'folders',
] as const;
export type AssignmentKind = (typeof ASSIGNMENT_KINDS)[number];

/** The body field that names the object of each kind, and the REST collection it links to. */
export const ASSIGNMENT_FIELDS = {
  clusters: { field: 'cluster', collection: 'vmware-clusters' },
  networks: { field: 'network', collection: 'vmware-networks' },
  'existing-vm-networks': { field: 'network', collection: 'vmware-networks' },
  datastores: { field: 'datastore', collection: 'vmware-datastores' },
  folders: { field: 'folder', collection: 'vmware-folders' },
} as const satisfies Record<AssignmentKind, { field: string; collection: string }>;

function assignmentBody<K extends AssignmentKind>(kind: K) {
  const { field, collection } = ASSIGNMENT_FIELDS[kind];
  return z.strictObject({ customer: hyperlink('customers'), [field]: hyperlink(collection) }) as z.ZodObject<
    Record<'customer' | (typeof ASSIGNMENT_FIELDS)[K]['field'], ReturnType<typeof hyperlink>>
  >;
}

export const assignmentListQuery = z.object({
  ...paginationQuery,
  customer_uuid: z.uuid({ error: messages.uuid }).optional(),
  offering_uuid: z.uuid({ error: messages.uuid }).optional(),
});

/** One assignment: the organisation, and the object with its offering. */
export const assignmentViewSchema = z.object({
  uuid: z.uuid(),
  kind: z.enum(ASSIGNMENT_KINDS),
  customer_uuid: z.uuid(),
  offering_uuid: z.uuid(),
  object_uuid: z.uuid(),
  object_name: z.string(),
  object_backend_id: z.string(),
  created: z.iso.datetime({ offset: true }),
});
export type AssignmentView = z.infer<typeof assignmentViewSchema>;

function assignmentOperations<K extends AssignmentKind>(kind: K) {
  const body = assignmentBody(kind);
  return {
    add: vsphereOperation(`vsphere.assignments.${kind}.add`, { body }),
    remove: vsphereOperation(`vsphere.assignments.${kind}.remove`, { body }),
    list: vsphereOperation(`vsphere.assignments.${kind}.list`, { query: assignmentListQuery }),
  };
}

export const ASSIGNMENT_OPERATIONS = {
  clusters: assignmentOperations('clusters'),
  networks: assignmentOperations('networks'),
  'existing-vm-networks': assignmentOperations('existing-vm-networks'),
  datastores: assignmentOperations('datastores'),
  folders: assignmentOperations('folders'),
};
