import { VM_ACTIONS } from '../vsphere/virtual-machine.requests';

/**
 * Who may call each route: the access policy declared once, keyed by the route's `operationId`.
 * The gateway publishes each route's rule in its OpenAPI document (`x-access`), and the access
 * matrix test (test/e2e/access-matrix.e2e-spec.ts) derives from it the answer every role must get
 * on every route. The services decide (apps/order-service/src/identity/domain/access-policy.ts and the
 * adapter); this table says what they must decide, so a route whose check drifts fails the matrix.
 *
 * Waldur's rules, reduced to this marketplace's roles: staff see and do everything; a customer's
 * owners manage it and all its projects; any project role shows the project and its customer;
 * managers and admins order in their project (members only look); a customer that owns offerings
 * is a service provider and its owners act for it. Whoever may not see an object is answered 404
 * as if it did not exist (400 naming the field when the object is linked from the body), whoever
 * sees it but may not act 403, a request without a valid token 401.
 */

/**
 * A set of users, relative to the object a route is about (its path's object, or the object its
 * body links for a creation). Staff belong to every audience but `catalogue-viewers`.
 */
export const ACCESS_AUDIENCES = {
  anyone: 'Everyone, without a token',
  'signed-in': 'Every user with a valid token',
  staff: 'Staff only',
  self: 'The user the route names',
  'user-viewers': 'The user, and whoever sees a customer or project where the user holds a role',
  'customer-members': "The customer's owners and whoever holds a role in one of its projects",
  'customer-owners': "The customer's owners",
  'project-members': "Owners of the project's customer and every role in the project",
  'project-managers': "Owners of the project's customer and the project's managers",
  'project-orderers': "Owners of the project's customer, the project's managers and admins",
  'provider-owners': "Owners of the offering's provider (its customer)",
  'order-viewers': "The order's project members and its provider's owners",
  'order-cancellers': "The project's managers (and owners) and the order's creator",
  'order-retriers': "The project's managers (and owners) and the provider's owners",
  'resource-terminators': "The project's orderers and the provider's owners",
  'offering-viewers': "Every signed-in user for an Active offering; otherwise its provider's owners",
  'inventory-viewers':
    "Every signed-in user for an Active or Paused offering (a Paused offering's VMs are still resized within its limits); otherwise its provider's owners",
  'inventory-users':
    "Members of an organisation that may use the vCenter object (assigned to it, or the kind's default while it has none assigned)",
  'catalogue-viewers':
    'Every signed-in user for an Active offering; nobody otherwise, staff included (providers read it as theirs)',
} as const;
export type AccessAudience = keyof typeof ACCESS_AUDIENCES;

/**
 * One route's rule: who sees the object (`see`; others get 404, or `unseen`), who may do what the
 * route does (`act`; others who see get 403), and for a list, who finds the object among its items.
 */
export interface AccessRule {
  readonly see: AccessAudience;
  readonly act: AccessAudience;
  /** The answer to a caller who does not see the object: 404, or 400 when the body links it. */
  readonly unseen: 400 | 404;
  /** A list's rule: the callers whose answer holds the object (everyone else's answer lacks it). */
  readonly items?: AccessAudience;
}

const rule = (see: AccessAudience, act: AccessAudience = see, unseen: 400 | 404 = 404): AccessRule => ({
  see,
  act,
  unseen,
});
const list = (items: AccessAudience): AccessRule => ({ ...rule('signed-in'), items });

/** The closed vocabulary of rules: every route names one of these. */
export const ACCESS_RULES = {
  public: rule('anyone'),
  'signed-in': rule('signed-in'),
  staff: rule('signed-in', 'staff'),
  'user-read': rule('user-viewers'),
  'self-or-staff': rule('user-viewers', 'self'),
  'user-staff': rule('user-viewers', 'staff'),
  'users-list': list('user-viewers'),
  'customer-read': rule('customer-members'),
  'customer-owner': rule('customer-members', 'customer-owners'),
  'customer-staff': rule('customer-members', 'staff'),
  /** Creating under a customer the body links (a project, an offering): unseen is a bad link. */
  'customer-owner-link': rule('customer-members', 'customer-owners', 400),
  'customer-staff-link': rule('customer-members', 'staff', 400),
  'customers-list': list('customer-members'),
  'project-read': rule('project-members'),
  'project-manager': rule('project-members', 'project-managers'),
  'project-owner': rule('project-members', 'customer-owners'),
  /** Ordering in the project (the body links it; an unseen project is 404, as Waldur answers). */
  'project-act': rule('project-members', 'project-orderers'),
  'projects-list': list('project-members'),
  'order-read': rule('order-viewers'),
  'order-consumer': rule('order-viewers', 'project-managers'),
  'order-provider': rule('order-viewers', 'provider-owners'),
  'order-cancel': rule('order-viewers', 'order-cancellers'),
  'order-retry': rule('order-viewers', 'order-retriers'),
  'orders-list': list('order-viewers'),
  'resource-read': rule('order-viewers'),
  'resource-act': rule('order-viewers', 'project-orderers'),
  'resource-terminate': rule('order-viewers', 'resource-terminators'),
  'resources-list': list('order-viewers'),
  'provider-act': rule('provider-owners'),
  'provider-offerings-list': list('provider-owners'),
  'offering-read': rule('offering-viewers'),
  'offering-provider-act': rule('offering-viewers', 'provider-owners'),
  /** The public catalogue: Active offerings only, for everyone alike. */
  'catalogue-read': rule('catalogue-viewers'),
  'catalogue-list': list('catalogue-viewers'),
  'plans-list': list('offering-viewers'),
  /** An offering's vCenter inventory: public while Active or Paused, its provider's while Draft. */
  'inventory-list': list('inventory-viewers'),
  /** One cluster, network, datastore or folder: to whoever's list of that kind holds it. */
  'inventory-read': rule('inventory-users'),
  'vm-read': rule('project-members'),
  'vm-act': rule('project-members', 'project-orderers'),
  /**
   * The VMRC console: vCenter 8 has no VM-scoped VMRC ticket, so the link (no ticket: VMRC asks for
   * the person's own vCenter account) is for staff; the VM's other viewers are told 403.
   */
  'vm-staff': rule('project-members', 'staff'),
  'vms-list': list('project-members'),
} as const satisfies Record<string, AccessRule>;
export type AccessRuleName = keyof typeof ACCESS_RULES;

// Every change to a VM: resize, its actions (VM_ACTIONS), new disks and adapters, the web console.
const VM_ACTS = [
  'partial_update',
  'update',
  ...VM_ACTIONS,
  'create_disk',
  'create_port',
  'create_snapshot',
  'remove_all_snapshots',
  'web_console_retrieve',
] as const;
const ASSIGNMENT_COLLECTIONS = ['clusters', 'networks', 'network_pairs', 'datastores', 'folders'] as const;
const DOCS_ASSETS = ['swagger_ui_css', 'swagger_ui_bundle_js', 'favicon_32x32_png'] as const;

/** Every route's rule, by operationId. A route without an entry fails the gateway's unit test. */
export const ROUTE_ACCESS: Readonly<Record<string, AccessRuleName>> = {
  api_auth_password_create: 'public',
  schema_retrieve: 'public',
  docs_retrieve: 'public',
  docs_init_retrieve: 'public',
  ...Object.fromEntries(DOCS_ASSETS.map((asset) => [`docs_${asset}_retrieve`, 'public'])),
  health_retrieve: 'public',
  events_stream: 'signed-in',
  marketplace_orders_events: 'order-read',

  customers_list: 'customers-list',
  customers_create: 'staff',
  customers_retrieve: 'customer-read',
  customers_partial_update: 'customer-owner',
  customers_destroy: 'customer-staff',
  customers_list_users: 'customer-read',
  customers_add_user: 'customer-owner',
  customers_set_quotas: 'customer-staff',
  customers_delete_user: 'customer-owner',

  projects_list: 'projects-list',
  projects_create: 'customer-owner-link',
  projects_retrieve: 'project-read',
  projects_partial_update: 'project-manager',
  projects_destroy: 'project-owner',
  projects_list_users: 'project-read',
  // Granting PROJECT.MEMBER or PROJECT.ADMIN: managers may; PROJECT.MANAGER needs an owner.
  projects_add_user: 'project-manager',
  projects_set_quotas: 'project-owner',
  projects_delete_user: 'project-manager',

  users_me_retrieve: 'signed-in',
  users_list: 'users-list',
  users_create: 'staff',
  users_retrieve: 'user-read',
  users_partial_update: 'self-or-staff',
  users_destroy: 'user-staff',
  users_change_password: 'self-or-staff',
  users_refresh_token: 'self-or-staff',
  users_revoke_tokens: 'self-or-staff',

  marketplace_provider_offerings_list: 'provider-offerings-list',
  marketplace_provider_offerings_create: 'customer-owner-link',
  marketplace_provider_offerings_retrieve: 'provider-act',
  marketplace_provider_offerings_partial_update: 'provider-act',
  marketplace_provider_offerings_activate: 'provider-act',
  marketplace_provider_offerings_pause: 'provider-act',
  marketplace_provider_offerings_archive: 'provider-act',
  marketplace_provider_offerings_update_integration: 'provider-act',
  marketplace_provider_offerings_sync: 'provider-act',
  marketplace_provider_offerings_integration: 'provider-act',
  marketplace_public_offerings_list: 'catalogue-list',
  marketplace_public_offerings_retrieve: 'catalogue-read',
  marketplace_public_offerings_plans_list: 'catalogue-read',
  marketplace_public_offerings_plans_retrieve: 'catalogue-read',
  service_settings_retrieve: 'offering-read',
  marketplace_plans_list: 'plans-list',
  marketplace_plans_retrieve: 'offering-read',
  marketplace_plans_update_prices: 'offering-provider-act',
  marketplace_plans_estimate: 'offering-read',

  marketplace_orders_list: 'orders-list',
  marketplace_orders_create: 'project-act',
  marketplace_orders_retrieve: 'order-read',
  marketplace_orders_resource: 'order-read',
  marketplace_orders_approve_by_consumer: 'order-consumer',
  marketplace_orders_reject_by_consumer: 'order-consumer',
  marketplace_orders_approve_by_provider: 'order-provider',
  marketplace_orders_reject_by_provider: 'order-provider',
  marketplace_orders_cancel: 'order-cancel',
  marketplace_orders_retry: 'order-retry',
  marketplace_orders_set_state_done: 'order-provider',
  marketplace_orders_set_state_erred: 'order-provider',
  marketplace_resources_list: 'resources-list',
  marketplace_resources_retrieve: 'resource-read',
  marketplace_resources_terminate: 'resource-terminate',
  marketplace_resources_set_end_date: 'resource-act',
  marketplace_resources_update_limits: 'resource-act',

  vmware_templates_list: 'inventory-list',
  vmware_templates_retrieve: 'offering-read',
  // Assigned (or defaulted) per organisation: every caller gets their organisations' view.
  vmware_clusters_list: 'signed-in',
  vmware_networks_list: 'signed-in',
  vmware_datastores_list: 'signed-in',
  vmware_folders_list: 'signed-in',
  vmware_clusters_retrieve: 'inventory-read',
  vmware_networks_retrieve: 'inventory-read',
  vmware_datastores_retrieve: 'inventory-read',
  vmware_folders_retrieve: 'inventory-read',
  vmware_limits_retrieve: 'offering-read',
  ...Object.fromEntries(
    ASSIGNMENT_COLLECTIONS.flatMap((kind) => [
      [`vmware_customer_${kind}_list`, 'staff'],
      [`vmware_customer_${kind}_create`, 'customer-staff-link'],
      [`vmware_customer_${kind}_remove`, 'staff'],
    ]),
  ),

  vmware_virtual_machine_list: 'vms-list',
  vmware_virtual_machine_retrieve: 'vm-read',
  vmware_virtual_machine_console_retrieve: 'vm-staff',
  ...Object.fromEntries(VM_ACTS.map((act) => [`vmware_virtual_machine_${act}`, 'vm-act'])),
  vmware_disks_list: 'vms-list',
  vmware_disks_retrieve: 'vm-read',
  vmware_disks_destroy: 'vm-act',
  vmware_disks_extend: 'vm-act',
  vmware_ports_list: 'vms-list',
  vmware_ports_retrieve: 'vm-read',
  vmware_ports_destroy: 'vm-act',
  vmware_virtual_machine_snapshots_retrieve: 'vm-read',
  vmware_virtual_machine_stats_retrieve: 'vm-read',
  vmware_snapshots_list: 'vms-list',
  vmware_snapshots_retrieve: 'vm-read',
  vmware_snapshots_revert: 'vm-act',
  vmware_snapshots_destroy: 'vm-act',
};

/** The rule of a route, as the OpenAPI document's `x-access` carries it; undefined if undeclared. */
export function routeAccess(operationId: string): (AccessRule & { rule: AccessRuleName }) | undefined {
  const name = ROUTE_ACCESS[operationId];
  return name === undefined ? undefined : { rule: name, ...ACCESS_RULES[name] };
}
