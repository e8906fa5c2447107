import { Inject, Injectable } from '@nestjs/common';
import {
  ok,
  refuse,
  type RequestReply,
  type VsphereOrderValidation,
  type VsphereOrderValidationRequest,
} from '@app/contracts';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { describeVcenterError } from '../../integration/domain/vcenter-error-message';
import { VcenterAccessService, type OfferingAccess } from '../../integration/services/vcenter-access.service';
import { VM_PROVISIONER, type VmProvisioner } from '../../vcenter/ports/vm-provisioner.port';
import {
  addError,
  checkHardware,
  positiveOr,
  type FieldErrors,
  HARDWARE_MESSAGES,
} from '../domain/hardware-rules';
import { parseLink, parseNetworkLinks, type LinkedAttribute } from '../domain/order-links';
import { vmNameRefusal } from '../domain/vm-name-rules';
import {
  PlacementRepository,
  type PlacementKind,
  type PlacementObject,
} from '../repositories/placement.repository';
import { VirtualMachineRepository } from '../repositories/virtual-machine.repository';

// Waldur's messages (VmwareVirtualMachineSerializer, DRF).
const M = {
  required: 'This field is required.',
  noObject: 'Invalid hyperlink - Object does not exist.',
  guestOs: 'It is not possible to customize guest OS when template is used.',
  noDefaultCluster: 'Default cluster is not defined for this service.',
  notConnected: 'This offering is not connected to a vCenter: its provider has not saved the integration.',
  noSpace: 'There is no datastore with enough free space available for current customer.',
} as const;

const NOUN: Record<PlacementKind, string> = {
  clusters: 'cluster',
  networks: 'network',
  datastores: 'datastore',
  folders: 'folder',
};

const notForService = (kind: PlacementKind) => `This ${NOUN[kind]} is not available for this service.`;
const notForCustomer = (kind: PlacementKind) => `This ${NOUN[kind]} is not available for this customer.`;
const noneAssigned = (kind: PlacementKind) => `There is no ${NOUN[kind]} assigned to the current customer.`;
const manyAssigned = (kind: PlacementKind) => `There are multiple ${kind} assigned to the current customer.`;

type Request = VsphereOrderValidationRequest;
type Reply = RequestReply<VsphereOrderValidation>;

/**
 * `vsphere.orders.validate`: Waldur's pipeline for a VM order (attributes → cluster → limits →
 * datastore → folder → networks on create; limits and the VM's power state on update; the power
 * state on terminate). Every problem found is answered at once, keyed by its attribute or limit.
 */
@Injectable()
export class OrderValidationService {
  constructor(
    @Inject(CONFIG) private readonly config: VsphereAdapterConfig,
    @Inject(VM_PROVISIONER) private readonly vcenter: VmProvisioner,
    private readonly access: VcenterAccessService,
    private readonly placement: PlacementRepository,
    private readonly vms: VirtualMachineRepository,
  ) {}

  async validate(request: Request): Promise<Reply> {
    const access = await this.access.forOffering(request.offering_uuid);
    if (access === null) return { status: 'error', code: 400, fields: { offering: [M.notConnected] } };
    if (request.type === 'Create') return this.validateCreate(access, request);
    return this.validateChange(access, request);
  }

  private async validateCreate(access: OfferingAccess, request: Request): Promise<Reply> {
    const { attributes: given, limits: asked } = request;
    const errors: FieldErrors = {};
    const attributes: Record<string, unknown> = {};
    if (typeof given.name !== 'string' || given.name.trim() === '') addError(errors, 'name', M.required);
    else {
      attributes.name = given.name.trim();
      const tooLong = vmNameRefusal(given.name.trim());
      if (tooLong !== null) addError(errors, 'name', tooLong);
    }
    attributes.description = typeof given.description === 'string' ? given.description : '';
    if (given.guest_os !== undefined && given.guest_os !== null && given.guest_os !== '')
      addError(errors, 'guest_os', M.guestOs);

    const template = await this.template(request, errors);
    if (template !== undefined) attributes.template = template.uuid;

    const cluster = await this.cluster(request, errors);
    if (cluster !== undefined) attributes.cluster = cluster.uuid;

    const limits: Record<string, number> = {};
    if (template !== undefined) {
      const cpu = positiveOr(asked.cpu, template.cores);
      const cps = positiveOr(given.cores_per_socket, template.coresPerSocket);
      const ram = positiveOr(asked.ram, template.ram);
      const disk = positiveOr(asked.disk, template.disk);
      for (const [field, value] of [
        ['cpu', cpu],
        ['cores_per_socket', cps],
        ['ram', ram],
        ['disk', disk],
      ] as const)
        if (!value.ok) addError(errors, field, value.message);
      if (cpu.ok && cps.ok && ram.ok && disk.ok) {
        const found = checkHardware(
          { cpu: cpu.value, coresPerSocket: cps.value, ram: ram.value, disk: disk.value },
          access.integration,
          true,
        );
        for (const [field, messages] of Object.entries(found))
          for (const m of messages) addError(errors, field, m);
        Object.assign(limits, { cpu: cpu.value, ram: ram.value, disk: disk.value });
        attributes.cores_per_socket = cps.value;
      }
    }

    const datastore = await this.datastore(request, template?.disk, errors);
    if (datastore !== undefined) attributes.datastore = datastore.uuid;
    const folder = await this.single('folders', 'folder', request, errors);
    if (folder !== undefined) attributes.folder = folder.uuid;
    const networks = await this.networks(request, errors);
    attributes.networks = networks.map((n) => n.uuid);

    if (Object.keys(errors).length > 0) return { status: 'error', code: 400, fields: errors };
    return ok({ attributes, limits });
  }

  /** Update (CPU, cores per socket, RAM) and Terminate: the VM must be powered off, read live. */
  private async validateChange(access: OfferingAccess, request: Request): Promise<Reply> {
    const vm =
      request.vm_uuid === null
        ? null
        : await this.vms.getByBackendUuid(request.offering_uuid, request.vm_uuid);
    if (request.type === 'Terminate' && vm === null) return ok({ attributes: {}, limits: {} });
    if (vm === null)
      return refuse(409, 'The resource has no virtual machine this adapter made: nothing to resize.');
    const attributes: Record<string, unknown> = {};
    const limits: Record<string, number> = {};
    if (request.type === 'Update') {
      const errors: FieldErrors = {};
      const cpu = positiveOr(request.limits.cpu, vm.cpu);
      const cps = positiveOr(request.attributes.cores_per_socket, vm.coresPerSocket);
      const ram = positiveOr(request.limits.ram, vm.ram);
      for (const [field, value] of [
        ['cpu', cpu],
        ['cores_per_socket', cps],
        ['ram', ram],
      ] as const)
        if (!value.ok) addError(errors, field, value.message);
      if (request.limits.disk !== undefined && request.limits.disk !== vm.disk)
        addError(errors, 'disk', HARDWARE_MESSAGES.diskUnchangeable);
      if (cpu.ok && cps.ok && ram.ok) {
        const found = checkHardware(
          { cpu: cpu.value, coresPerSocket: cps.value, ram: ram.value, disk: vm.disk },
          access.integration,
          false,
        );
        for (const [field, messages] of Object.entries(found))
          for (const m of messages) addError(errors, field, m);
        Object.assign(limits, { cpu: cpu.value, ram: ram.value, disk: vm.disk });
        attributes.cores_per_socket = cps.value;
      }
      if (Object.keys(errors).length > 0) return { status: 'error', code: 400, fields: errors };
    }
    let state;
    try {
      state = await this.vcenter.powerState(await access.connection(), vm.moref, {
        signal: AbortSignal.timeout(this.config.VSPHERE_CALL_TIMEOUT_MS),
        timeoutMs: this.config.VSPHERE_CALL_TIMEOUT_MS,
      });
    } catch (error) {
      return refuse(503, `The virtual machine's power state cannot be read: ${describeVcenterError(error)}`);
    }
    if (state === undefined) {
      if (request.type === 'Terminate') return ok({ attributes, limits });
      return refuse(409, 'The virtual machine no longer exists in vCenter.');
    }
    if (state !== 'POWERED_OFF') {
      const action = request.type === 'Update' ? 'resized' : 'deleted';
      return refuse(409, `The virtual machine must be POWERED_OFF to be ${action}; it is ${state}.`);
    }
    return ok({ attributes, limits });
  }

  private async template(request: Request, errors: FieldErrors) {
    const value = request.attributes.template;
    if (value === undefined || value === null || value === '')
      return void addError(errors, 'template', M.required);
    const link = parseLink('template', value);
    if (!link.ok) return void addError(errors, 'template', link.message);
    const template = await this.placement.template(link.uuid);
    if (template === null) return void addError(errors, 'template', M.noObject);
    if (template.offeringUuid !== request.offering_uuid)
      return void addError(errors, 'template', 'This template is not available for this service.');
    return template;
  }

  private async cluster(request: Request, errors: FieldErrors): Promise<PlacementObject | undefined> {
    if (this.config.VSPHERE_BASIC_MODE) {
      const assigned = await this.placement.assigned(
        'clusters',
        request.offering_uuid,
        request.customer_uuid,
      );
      if (assigned.length > 1) return void addError(errors, 'cluster', manyAssigned('clusters'));
      if (assigned.length === 1) return assigned[0];
    } else if (present(request.attributes.cluster)) {
      return this.resolve('clusters', 'cluster', request.attributes.cluster, request, errors);
    }
    const fallback = await this.placement.defaultCluster(request.offering_uuid);
    if (fallback === null) return void addError(errors, 'cluster', M.noDefaultCluster);
    return fallback;
  }

  private async datastore(
    request: Request,
    templateDisk: number | undefined,
    errors: FieldErrors,
  ): Promise<PlacementObject | undefined> {
    if (!this.config.VSPHERE_BASIC_MODE) return this.single('datastores', 'datastore', request, errors);
    const [roomiest] = await this.placement.assigned(
      'datastores',
      request.offering_uuid,
      request.customer_uuid,
    );
    if (roomiest === undefined) return void addError(errors, 'datastore', noneAssigned('datastores'));
    if (templateDisk !== undefined && roomiest.freeSpace !== null && templateDisk > roomiest.freeSpace)
      return void addError(errors, 'datastore', M.noSpace);
    return roomiest;
  }

  /** A folder or datastore: the customer's single one in basic mode, else the chosen one if any. */
  private async single(
    kind: 'folders' | 'datastores',
    field: 'folder' | 'datastore',
    request: Request,
    errors: FieldErrors,
  ): Promise<PlacementObject | undefined> {
    if (this.config.VSPHERE_BASIC_MODE) {
      const assigned = await this.placement.assigned(kind, request.offering_uuid, request.customer_uuid);
      if (assigned.length === 0) return void addError(errors, field, noneAssigned(kind));
      if (assigned.length > 1) return void addError(errors, field, manyAssigned(kind));
      return assigned[0];
    }
    const value = request.attributes[field];
    return present(value) ? this.resolve(kind, field, value, request, errors) : undefined;
  }

  private async networks(request: Request, errors: FieldErrors): Promise<PlacementObject[]> {
    if (this.config.VSPHERE_BASIC_MODE) {
      const assigned = await this.placement.assigned(
        'networks',
        request.offering_uuid,
        request.customer_uuid,
      );
      if (assigned.length === 0) addError(errors, 'networks', noneAssigned('networks'));
      else if (assigned.length > 1) addError(errors, 'networks', manyAssigned('networks'));
      return assigned.length === 1 ? assigned : [];
    }
    const value = request.attributes.networks;
    if (!present(value)) return [];
    const links = parseNetworkLinks(value);
    if (!links.ok) {
      addError(errors, 'networks', links.message);
      return [];
    }
    const found: PlacementObject[] = [];
    for (const uuid of links.uuids) {
      const network = await this.resolve('networks', 'networks', uuid, request, errors);
      if (network !== undefined) found.push(network);
    }
    return found;
  }

  /** A chosen object: it exists, belongs to the offering, and the customer may use it. */
  private async resolve(
    kind: PlacementKind,
    field: LinkedAttribute,
    value: unknown,
    request: Request,
    errors: FieldErrors,
  ): Promise<PlacementObject | undefined> {
    const link = parseLink(field, value);
    if (!link.ok) return void addError(errors, field, link.message);
    const found = await this.placement.object(kind, link.uuid, request.customer_uuid);
    if (found === null) return void addError(errors, field, M.noObject);
    if (found.object.offeringUuid !== request.offering_uuid)
      return void addError(errors, field, notForService(kind));
    if (!found.visible) return void addError(errors, field, notForCustomer(kind));
    return found.object;
  }
}

const present = (v: unknown): boolean =>
  v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);
