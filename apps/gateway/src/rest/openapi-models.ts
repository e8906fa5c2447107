import { z } from 'zod';

/**
 * The component names of the OpenAPI document: Waldur's own names where the object is the same
 * (read from Waldur's published document, `waldur/api-docs`, 8.0.3), so that a client generated
 * from `/api/schema/` has the models a client generated from Waldur's has (`OrderDetails`,
 * `Resource`, `VmwareTemplate`…). Our own names, in Waldur's style, for what Waldur does not have.
 */

/** The answers' schemas by name: zod emits each as a component, and a `$ref` wherever it is nested. */
export const responseModels = z.registry<{ id: string }>();
const namedAs = new Map<string, z.ZodType>();

/**
 * Names an answer's schema (this very instance: the routes answering it and the objects nesting it
 * then refer to one component). Throws at load on a name given twice or a schema named twice, so a
 * mistake cannot reach the document; a schema that must appear under two of Waldur's names (the
 * same plan as `BasePublicPlan` and `ProviderPlanDetails`) is two instances.
 */
export function model<T extends z.ZodType>(id: string, schema: T): T {
  const existing = responseModels.get(schema)?.id;
  if (existing !== undefined) throw new Error(`Model ${id}: this schema is already named ${existing}`);
  if (namedAs.has(id)) throw new Error(`Model ${id} is named twice`);
  namedAs.set(id, schema);
  responseModels.add(schema, { id });
  return schema;
}

/**
 * The request bodies' names, by operation: Waldur names a body per operation (`ProjectRequest` to
 * create, `PatchedProjectRequest` to change), and our operations in `libs/contracts` may share one
 * schema between two of them (a VM's PUT and PATCH). An operation whose body takes no field has no
 * documented body, as in Waldur's document.
 */
export const REQUEST_MODELS: Readonly<Record<string, string>> = {
  api_auth_password_create: 'ObtainAuthTokenRequest',
  customers_create: 'CustomerRequest',
  customers_partial_update: 'PatchedCustomerRequest',
  customers_add_user: 'UserRoleCreateRequest',
  customers_delete_user: 'UserRoleDeleteRequest',
  customers_set_quotas: 'CustomerQuotasRequest',
  projects_create: 'ProjectRequest',
  projects_partial_update: 'PatchedProjectRequest',
  // A project's roles are not a customer's: its grant bodies are components of their own.
  projects_add_user: 'ProjectUserRoleCreateRequest',
  projects_delete_user: 'ProjectUserRoleDeleteRequest',
  projects_set_quotas: 'ProjectQuotasRequest',
  users_create: 'UserRequest',
  users_partial_update: 'PatchedUserRequest',
  users_change_password: 'PasswordChangeRequest',
  marketplace_provider_offerings_create: 'OfferingCreateRequest',
  marketplace_provider_offerings_partial_update: 'PatchedOfferingRequest',
  marketplace_provider_offerings_pause: 'OfferingPauseRequest',
  marketplace_provider_offerings_update_integration: 'OfferingIntegrationUpdateRequest',
  marketplace_plans_update_prices: 'PricesUpdateRequest',
  marketplace_plans_estimate: 'PlanEstimateRequest',
  marketplace_orders_create: 'OrderCreateRequest',
  marketplace_orders_reject_by_consumer: 'OrderErrorDetailsRequest',
  marketplace_orders_approve_by_provider: 'OrderApproveByProviderRequest',
  marketplace_orders_reject_by_provider: 'OrderProviderRejectionRequest',
  marketplace_orders_set_state_erred: 'OrderErrorDetailsRequest',
  marketplace_resources_terminate: 'ResourceTerminateRequest',
  marketplace_resources_update_limits: 'ResourceUpdateLimitsRequest',
  marketplace_resources_set_end_date: 'ResourceEndDateRequest',
  vmware_customer_clusters_create: 'VmwareCustomerClusterRequest',
  vmware_customer_clusters_remove: 'VmwareCustomerClusterRequest',
  vmware_customer_networks_create: 'VmwareCustomerNetworkRequest',
  vmware_customer_networks_remove: 'VmwareCustomerNetworkRequest',
  vmware_customer_network_pairs_create: 'VmwareCustomerNetworkPairRequest',
  vmware_customer_network_pairs_remove: 'VmwareCustomerNetworkPairRequest',
  vmware_customer_datastores_create: 'VmwareCustomerDatastoreRequest',
  vmware_customer_datastores_remove: 'VmwareCustomerDatastoreRequest',
  vmware_customer_folders_create: 'VmwareCustomerFolderRequest',
  vmware_customer_folders_remove: 'VmwareCustomerFolderRequest',
  vmware_virtual_machine_partial_update: 'PatchedVmwareVirtualMachineRequest',
  vmware_virtual_machine_update: 'VmwareVirtualMachineRequest',
  vmware_virtual_machine_create_disk: 'VmwareDiskRequest',
  vmware_virtual_machine_create_port: 'VmwarePortRequest',
  vmware_virtual_machine_create_snapshot: 'VmwareSnapshotRequest',
  vmware_disks_extend: 'VmwareDiskExtendRequest',
};

/** A body schema that takes no field (`{}`, strict): nothing to document. */
export function takesNoField(schema: z.ZodType): boolean {
  return schema instanceof z.ZodObject && Object.keys(schema.shape).length === 0;
}
