import type { RequestReply, VmSizesPage } from '@app/contracts';

/** The sizes of the VMs the vSphere adapter recorded for marketplace resources, a page at a time. */
export interface VmSizesPort {
  page(after: string | null, limit: number): Promise<RequestReply<VmSizesPage>>;
}
