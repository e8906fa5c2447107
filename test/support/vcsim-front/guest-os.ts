/**
 * vim25 `config.guestId` → the vAPI `vcenter.vm.GuestOS` spelling vCenter's `/api` returns:
 * `otherGuest` → `OTHER`, `otherGuest64` → `OTHER_64`, `ubuntu64Guest` → `UBUNTU_64`,
 * `windows9_64Guest` → `WINDOWS_9_64`, `otherLinux64Guest` → `OTHER_LINUX_64`. Pure.
 */
export function vapiGuestOs(guestId: string | undefined): string {
  if (guestId === undefined || guestId === '') return 'OTHER';
  return guestId
    .replace(/Guest/, '')
    .replace(/([a-z])([A-Z0-9])/g, '$1_$2')
    .replace(/([0-9])([A-Za-z])/g, '$1_$2')
    .replace(/_+/g, '_')
    .toUpperCase();
}
