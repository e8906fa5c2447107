/** The public REST shapes the portal reads: the fields it shows, as the gateway presents them. */

export interface User {
  uuid: string;
  username: string;
  full_name: string;
  is_staff: boolean;
}

export interface Project {
  uuid: string;
  url: string;
  name: string;
  customer_uuid: string;
  customer_name: string;
}

export interface OfferingComponent {
  type: string;
  name: string;
  measured_unit: string;
  factor: number;
}

export interface Plan {
  uuid: string;
  url: string;
  name: string;
  archived: boolean;
  /** Per measured unit of each component, a month. */
  prices: Record<string, string>;
}

export interface Offering {
  uuid: string;
  url: string;
  name: string;
  description: string;
  type: string;
  state: string;
  customer_name: string;
  terms_of_service: string;
  components: OfferingComponent[];
  plans: Plan[];
}

export interface Named {
  uuid: string;
  url: string;
  name: string;
}

export interface Template extends Named {
  os: string;
  os_version: string;
  cores: number;
  cores_per_socket: number;
  ram: number;
  disk: number;
}

export const ORDER_STATES = [
  'pending-consumer',
  'pending-provider',
  'executing',
  'done',
  'erred',
  'canceled',
  'rejected',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];
export const TERMINAL_STATES: readonly string[] = ['done', 'erred', 'canceled', 'rejected'];

export interface Order {
  uuid: string;
  type: 'Create' | 'Update' | 'Terminate';
  state: OrderState;
  offering_name: string;
  offering_type: string;
  project_uuid: string;
  project_name: string;
  customer_name: string;
  plan_name: string | null;
  marketplace_resource_uuid: string;
  resource_uuid: string | null;
  resource_name: string;
  attributes: Record<string, unknown>;
  limits: Record<string, number>;
  cost: string | null;
  error_message: string;
  created: string;
  modified: string;
  completed_at: string | null;
}

export interface Disk {
  uuid: string;
  size: number;
  state: string;
  error_message: string;
}

export interface Port {
  uuid: string;
  mac_address: string;
  network_name: string;
  state: string;
}

export interface VmOperation {
  uuid: string;
  operation: string;
  state: 'pending' | 'running' | 'done' | 'erred';
  error_message: string;
}

export interface Vm {
  uuid: string;
  name: string;
  state: string;
  runtime_state: string;
  cores: number;
  cores_per_socket: number;
  ram: number;
  disk: number;
  tools_state: string;
  disks: Disk[];
  ports: Port[];
  marketplace_resource_uuid: string;
  error_message: string;
  /** VmChanged only: the operation whose progress made the change. */
  operation?: VmOperation | null;
}

export interface Resource {
  uuid: string;
  name: string;
  state: string;
  offering_name: string;
  offering_type: string;
  project_uuid: string;
  /** The backend object (the VM's uuid in vCenter), once made. */
  resource_uuid: string | null;
  cost: string | null;
  error_message: string;
  created: string;
}
