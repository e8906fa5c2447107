import {
  OPENSTACK_INSTANCE_TYPE,
  OPENSTACK_TENANT_TYPE,
  OPENSTACK_VOLUME_TYPE,
  type OpenStackType,
} from './offering-types';

/**
 * The typed fields of a Create order of each OpenStack offering type, with Waldur's names (the
 * fields its marketplace_openstack create processors copy from the order's attributes to the tenant,
 * instance or volume; links are URLs). A field's value here is its layout: `null` for a value, a
 * list of one object for a list of such objects. This system has no OpenStack backend: the
 * provider processes these orders by hand, so nothing checks the attributes beyond the order body;
 * `waldur-cli openstack <noun> provision --generate-skeleton` lays them out.
 */
export interface OpenStackOrderFields {
  readonly attributes: Readonly<Record<string, OrderFieldLayout>>;
  /** The offering's components the order's `limits` set (a tenant's quotas); none for the others. */
  readonly limits: readonly string[];
}
export type OrderFieldLayout = null | readonly { readonly [field: string]: OrderFieldLayout }[];

export const OPENSTACK_ORDER_FIELDS: Readonly<Record<OpenStackType, OpenStackOrderFields>> = {
  [OPENSTACK_TENANT_TYPE]: {
    attributes: {
      name: null,
      description: null,
      skip_connection_extnet: null,
      skip_creation_of_default_router: null,
      subnet_cidr: null,
      availability_zone: null,
      security_groups: [{ name: null, description: null }],
    },
    // Waldur's tenant quotas: vCPU, RAM and storage in MiB.
    limits: ['cores', 'ram', 'storage'],
  },
  [OPENSTACK_INSTANCE_TYPE]: {
    attributes: {
      name: null,
      description: null,
      flavor: null,
      image: null,
      system_volume_size: null,
      system_volume_type: null,
      data_volume_size: null,
      data_volume_type: null,
      ports: [{ subnet: null, fixed_ips: [{ ip_address: null, subnet_id: null }] }],
      floating_ips: [{ subnet: null, url: null }],
      security_groups: [{ url: null }],
      ssh_public_key: null,
      user_data: null,
      availability_zone: null,
      connect_directly_to_external_network: null,
    },
    limits: [],
  },
  [OPENSTACK_VOLUME_TYPE]: {
    attributes: {
      name: null,
      description: null,
      size: null,
      type: null,
      availability_zone: null,
      image: null,
    },
    limits: [],
  },
};
