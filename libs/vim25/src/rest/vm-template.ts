import type { MoRef } from '../types/mo-ref';
import { REST_PATHS } from './rest-paths';
import {
  decodeWith,
  IdSchema,
  VmTemplateInfoSchema,
  type VmTemplateCreateSpec,
  type VmTemplateDeploySpec,
  type VmTemplateInfo,
} from './rest-models';
import type { VapiCaller } from './rest-session';
import type { RestCallOptions } from './rest-transport';

/**
 * `GET /api/vcenter/vm-template/library-items/{id}`: a vm-template item's guest OS, CPU, memory,
 * disks (key → capacity in bytes, datastore) and NICs (key → backing type, network). Unknown
 * item: VapiError NOT_FOUND. One round trip.
 */
export function getVmTemplate(
  caller: VapiCaller,
  itemId: string,
  options?: RestCallOptions,
): Promise<VmTemplateInfo> {
  return caller.invoke(
    'GetVmTemplate',
    { method: 'GET', path: REST_PATHS.vmTemplateItem(itemId) },
    decodeWith(VmTemplateInfoSchema),
    options,
  );
}

/**
 * `POST /api/vcenter/vm-template/library-items`: publishes VM `source_vm` as a vm-template item
 * of `library`; returns the item id. vCenter clones the VM (minutes on a real one): give a
 * generous timeout. One round trip.
 */
export function createVmTemplate(
  caller: VapiCaller,
  spec: VmTemplateCreateSpec,
  options?: RestCallOptions,
): Promise<string> {
  return caller.invoke(
    'CreateVmTemplate',
    { method: 'POST', path: REST_PATHS.vmTemplateItems, body: spec },
    decodeWith(IdSchema),
    options,
  );
}

/**
 * `POST /api/vcenter/vm-template/library-items/{id}?action=deploy`: a new VM from a vm-template
 * item with placement, storage, hardware customisation and `powered_on`; returns the VM. vCenter
 * answers when the VM exists (clone time): give a generous timeout. One round trip.
 */
export async function deployVmTemplate(
  caller: VapiCaller,
  itemId: string,
  spec: VmTemplateDeploySpec,
  options?: RestCallOptions,
): Promise<MoRef> {
  const value = await caller.invoke(
    'DeployVmTemplate',
    { method: 'POST', path: REST_PATHS.vmTemplateDeploy(itemId), body: spec },
    decodeWith(IdSchema),
    options,
  );
  return { type: 'VirtualMachine', value };
}
