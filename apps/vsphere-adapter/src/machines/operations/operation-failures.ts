/** The VM is no longer in vCenter: the runner records it ERRED with the reason. */
export class VmGone extends Error {
  override readonly name = 'VmGone';
  constructor() {
    super('The virtual machine no longer exists in vCenter.');
  }
}

/** The guest did not get where a guest shutdown or reboot asked in time: the VM turns ERRED with it. */
export class GuestTimedOut extends Error {
  override readonly name = 'GuestTimedOut';
  constructor(kind: 'shutdown_guest' | 'reboot_guest', timeoutMs: number) {
    const what = kind === 'shutdown_guest' ? 'power off' : 'restart VMware Tools';
    super(
      `The guest did not ${what} within ${Math.round(timeoutMs / 1000)} s of vCenter accepting the request.`,
    );
  }
}
