import { z } from 'zod';

/**
 * `vsphere-internal.vms.sizes`: core NATS request-reply, asked by the order service's quota recount
 * (`npm run quotas:recount`; no other app may send it); answered by the vSphere adapter with
 * RequestReply<VmSizesPage>: the size each VM it has recorded for a marketplace resource has, as its
 * VmChanged would report it, a page at a time in resource uuid order (`after` the last one of the
 * previous page). One indexed read of the adapter's table per page; nothing in vCenter is asked.
 */
export const VM_SIZES_PATTERN = 'vsphere-internal.vms.sizes';

/** The most a page holds: a page of entries stays well under NATS's default 1 MiB payload. */
export const VM_SIZES_PAGE_MAX = 500;

export const vmSizesRequestSchema = z.strictObject({
  /** The last resource uuid of the previous page; null for the first page. */
  after: z.uuid().nullable(),
  limit: z.number().int().min(1).max(VM_SIZES_PAGE_MAX),
});
export type VmSizesRequest = z.infer<typeof vmSizesRequestSchema>;

/** One recorded VM: its resource, CPUs, RAM and total disk in MiB, and whether vCenter lost it. */
export const vmSizeSchema = z.object({
  marketplace_resource_uuid: z.uuid(),
  cores: z.number().int(),
  ram: z.number().int(),
  disk: z.number().int(),
  /** ERRED because a pull found it gone from vCenter (VM_GONE_FROM_VCENTER). */
  gone: z.boolean(),
});
export type VmSize = z.infer<typeof vmSizeSchema>;

export const vmSizesPageSchema = z.object({
  vms: z.array(vmSizeSchema),
  /** The adapter's clock when it read the page: every change recorded before it is in the page. */
  read_at: z.iso.datetime({ offset: true }),
  /** The `after` of the next page, or null when this was the last. */
  next: z.uuid().nullable(),
});
export type VmSizesPage = z.infer<typeof vmSizesPageSchema>;
