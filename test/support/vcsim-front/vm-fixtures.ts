import {
  asMoRef,
  escapeXml,
  readResponse,
  readVmDevices,
  runTask,
  SOAPENV_NS,
  vmObject,
  waitForTask,
  XSD_NS,
  XSI_NS,
  type MoRef,
  type VimContext,
} from '@app/vim25';

/**
 * Test helper: makes `vm` a VM whose only disk controller is NVMe, as vCenter 8 creates for recent
 * guest types (Windows 11, Server 2022): its SCSI controllers go with every device on them (disks
 * deleted), and one VirtualNVMEController (bus 0, no disks) is added, in one ReconfigVM_Task.
 * vcsim accepts both. Returns nothing; read the devices to find the controller.
 */
export async function makeNvmeOnlyVm(ctx: VimContext, vm: MoRef): Promise<void> {
  const devices = await readVmDevices(ctx, vm);
  const scsi = new Set(devices.filter((d) => d.kind === 'scsi').map((d) => d.key));
  const onScsi = devices.filter((d) => d.controllerKey !== undefined && scsi.has(d.controllerKey));
  const deviceChange = [
    ...onScsi.map((d) => ({
      operation: 'remove',
      fileOperation: d.kind === 'disk' ? 'destroy' : undefined,
      device: d.raw,
    })),
    ...devices.filter((d) => d.kind === 'scsi').map((d) => ({ operation: 'remove', device: d.raw })),
    { operation: 'add', device: { _type: 'VirtualNVMEController', key: -100, busNumber: 0 } },
  ];
  await runTask(ctx, (o) => vmObject(ctx, vm).reconfigure({ deviceChange }, o));
}

/**
 * Test helper: sets vcsim's `guest.toolsRunningStatus` of `vm` (vcsim never runs Tools; its
 * ReconfigVM_Task applies an extraConfig key `SET.<property>` to the property itself). With
 * `guestToolsRunning`, ShutdownGuest passes the front and vcsim powers the VM off; RebootGuest
 * stays vcsim's MethodNotFound. vCenter gets this state from the guest, never from a client.
 */
export async function setGuestToolsStatus(
  ctx: VimContext,
  vm: MoRef,
  status: 'guestToolsRunning' | 'guestToolsNotRunning',
): Promise<void> {
  // The value must be typed xsd:string, which the client's encoder does not write for an AnyType.
  const envelope =
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<soapenv:Envelope xmlns:soapenv="${SOAPENV_NS}" xmlns:xsd="${XSD_NS}" xmlns:xsi="${XSI_NS}"><soapenv:Body>` +
    `<ReconfigVM_Task xmlns="urn:vim25"><_this type="VirtualMachine">${escapeXml(vm.value)}</_this>` +
    '<spec><extraConfig><key>SET.guest.toolsRunningStatus</key>' +
    `<value xsi:type="xsd:string">${status}</value></extraConfig></spec></ReconfigVM_Task>` +
    '</soapenv:Body></soapenv:Envelope>';
  const task = asMoRef(readResponse('ReconfigVM_Task', await ctx.caller.call('ReconfigVM_Task', envelope)));
  if (task === undefined) throw new Error('ReconfigVM_Task answered without a task');
  await waitForTask(ctx.caller, ctx.content.propertyCollector, { ref: task, operation: 'ReconfigVM_Task' });
}
