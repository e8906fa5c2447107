/** The VM is no longer in vCenter: the runner records it ERRED with the reason. */
export class VmGone extends Error {
  override readonly name = 'VmGone';
  constructor() {
    super('The virtual machine no longer exists in vCenter.');
  }
}
