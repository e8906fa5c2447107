import { z } from 'zod';
import { QUOTA_NAMES } from '../identity/quotas';

/**
 * `quota-reservations.reserve`: before the vSphere adapter accepts a change made through a VM's own
 * endpoints that grows what the VM uses (a disk added or extended, a resize), it asks the order
 * service to count the growth against the quotas of the VM's project and organisation. The order
 * service checks and records it in one transaction under the same row locks as an order, so
 * concurrent requests and orders are counted one after the other; the reservation is keyed by the
 * adapter's operation uuid and counted until the VmChanged that carries that operation ended (done:
 * the VM's recorded size takes over in the same transaction; erred: released). Asked by the adapter
 * only (the NATS permissions allow no one else), after it checked the caller; answered over core
 * NATS with `RequestReply<QuotaReservationView>`. Idempotent by `operation_uuid`.
 */
export const QUOTA_RESERVE_PATTERN = 'quota-reservations.reserve';

/**
 * `quota-reservations.release`: the adapter gives back a reservation whose operation it did not
 * queue after all (its own transaction failed). Idempotent; answered with `RequestReply<null>`.
 */
export const QUOTA_RELEASE_PATTERN = 'quota-reservations.release';

const amount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** What a VM change adds (only growth: a shrink asks for nothing and is never asked about). */
export const quotaGrowthSchema = z.strictObject({ vcpu: amount, ram: amount, storage: amount });
export type QuotaGrowth = z.infer<typeof quotaGrowthSchema>;

export const quotaReserveRequestSchema = z.strictObject({
  /** The adapter's operation that will carry the change out (its VmChanged settles the reservation). */
  operation_uuid: z.uuid(),
  /** The marketplace resource of the VM (`marketplace_resource_uuid`). */
  resource_uuid: z.uuid(),
  growth: quotaGrowthSchema,
});
export type QuotaReserveRequest = z.infer<typeof quotaReserveRequestSchema>;

export const quotaReleaseRequestSchema = z.strictObject({ operation_uuid: z.uuid() });
export type QuotaReleaseRequest = z.infer<typeof quotaReleaseRequestSchema>;

/**
 * The answer: `refused` null when the growth was reserved (or nothing needed it), else the quota
 * it would pass and the message ("Project quota for storage (MiB) is 10240; 8192 are in use or
 * ordered; this request asks for 4096."), which the adapter answers with 400 on its request's field.
 */
export const quotaReservationViewSchema = z.object({
  refused: z.object({ quota: z.enum(QUOTA_NAMES), message: z.string() }).nullable(),
});
export type QuotaReservationView = z.infer<typeof quotaReservationViewSchema>;
