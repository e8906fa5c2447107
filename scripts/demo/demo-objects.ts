// The objects npm start's demo registers, found again by these names at every start.

export const DEMO_PROVIDER = {
  name: 'Demo Provider',
  description: 'Service provider of the local demo: runs the vSphere offering on vcsim',
};

export const DEMO_CUSTOMER = {
  name: 'Demo Customer',
  description: 'Organisation of the local demo that orders VMs',
};

export const DEMO_PROJECT = { name: 'Demo Project', description: "Demo Customer's first project" };

export const DEMO_OFFERING = {
  name: 'Demo vSphere VMs',
  category: 'Virtual machines',
  description: 'Virtual machines on the local vCenter simulator (vcsim behind the project front)',
  type: 'VMware.VirtualMachine',
};

/** Monthly price per vCPU, per GB of RAM and per GB of disk on the Default plan. */
export const DEMO_PRICES = { cpu: '5', ram: '2.5', disk: '0.1' };

/** The offering's maximums per VM (MiB for RAM and disks, as the API takes them). */
export const DEMO_LIMITS = {
  max_cpu: 16,
  max_cores_per_socket: 8,
  max_ram: 64 * 1024,
  max_disk: 500 * 1024,
  max_disk_total: 1000 * 1024,
};

/** vcsim's first cluster: where new VMs go when an organisation has none assigned. */
export const DEMO_CLUSTER = 'DC0_C0';
