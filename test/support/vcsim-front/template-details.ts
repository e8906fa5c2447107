import {
  asArray,
  asMoRef,
  asNumber,
  asString,
  readNetworks,
  toVmDevices,
  type MoRef,
  type NetworkInfo,
  type VimConnection,
  type VirtualEthernetCard,
} from '@app/vim25';
import { vapiGuestOs } from './guest-os';
import { readObject } from './soap-lookups';

const TEMPLATE_PATHS = [
  'config.guestId',
  'config.hardware.numCPU',
  'config.hardware.numCoresPerSocket',
  'config.hardware.memoryMB',
  'config.hardware.device',
  'datastore',
];

function nicNetwork(
  nic: VirtualEthernetCard,
  networks: readonly NetworkInfo[],
): { backing_type: string; network?: string } {
  const b = nic.backing;
  switch (b.kind) {
    case 'standard':
      return { backing_type: 'STANDARD_PORTGROUP', network: b.network?.value };
    case 'distributed': {
      const pg = networks.find((n) => n.kind === 'distributed' && n.portgroupKey === b.portgroupKey);
      return { backing_type: 'DISTRIBUTED_PORTGROUP', network: pg?.ref.value ?? b.portgroupKey };
    }
    case 'opaque': {
      const net = networks.find((n) => n.kind === 'opaque' && n.opaqueNetworkId === b.opaqueNetworkId);
      return { backing_type: 'OPAQUE_NETWORK', network: net?.ref.value };
    }
    default:
      return { backing_type: 'HOST_DEVICE' };
  }
}

/**
 * What vCenter 8 answers to `GET /api/vcenter/vm-template/library-items/{id}`, built from the
 * template VM over SOAP (vcsim answers `{}`): guest_OS, cpu, memory, vm_home_storage, disks
 * (key → capacity in bytes, datastore), nics (key → backing type, MAC type, network), vm_template.
 */
export async function templateDetails(ctx: VimConnection, template: MoRef): Promise<Record<string, unknown>> {
  const o = await readObject(ctx, template, TEMPLATE_PATHS, 'template virtual machine');
  const devices = toVmDevices(o.props.get('config.hardware.device'));
  const home = asMoRef(asArray(o.props.get('datastore'))[0])?.value;
  const networks = devices.some((d) => d.kind === 'nic') ? await readNetworks(ctx) : [];
  const disks: Record<string, unknown> = {};
  const nics: Record<string, unknown> = {};
  for (const d of devices) {
    if (d.kind === 'disk') {
      const bytes = asNumber(d.raw.capacityInBytes) ?? d.capacityInKB * 1024;
      disks[String(d.key)] = { capacity: bytes, disk_storage: { datastore: d.datastore?.value ?? home } };
    } else if (d.kind === 'nic') {
      const macType = (asString(d.raw.addressType) ?? 'generated').toUpperCase();
      nics[String(d.key)] = { ...nicNetwork(d, networks), mac_type: macType };
    }
  }
  return {
    guest_OS: vapiGuestOs(asString(o.props.get('config.guestId'))),
    cpu: {
      count: asNumber(o.props.get('config.hardware.numCPU')) ?? 1,
      cores_per_socket: asNumber(o.props.get('config.hardware.numCoresPerSocket')) ?? 1,
    },
    memory: { size_MiB: asNumber(o.props.get('config.hardware.memoryMB')) ?? 0 },
    vm_home_storage: { datastore: home },
    disks,
    nics,
    vm_template: template.value,
  };
}
