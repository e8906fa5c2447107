import { z } from 'zod';
import { messages } from './wire-fields';

/**
 * Quotas of an organisation (customer) and of a project, under the names Waldur gives a project's
 * quotas (`vcpu`, `ram` and `storage` in MiB, `max_instances`), and `cost`: the monthly cost from
 * the plans' prices, in whole currency units (Waldur has no name for it). Shown as Waldur shows
 * them: a list of `{name, limit, usage}` where `limit` -1 means no limit (a cost's usage has cents).
 * Usage counts what exists and what is ordered and not yet done (a Create waiting for review, the
 * larger of an Update's old and new size).
 */
export const QUOTA_NAMES = ['vcpu', 'ram', 'storage', 'max_instances', 'cost'] as const;
export type QuotaName = (typeof QUOTA_NAMES)[number];

/** How a refusal names each quota ("Project quota for vCPU is 16; …"). */
export const QUOTA_LABELS: Readonly<Record<QuotaName, string>> = {
  vcpu: 'vCPU',
  ram: 'RAM (MiB)',
  storage: 'storage (MiB)',
  max_instances: 'VMs',
  cost: 'monthly cost',
};

/** Waldur's value for "no limit". */
export const UNLIMITED = -1;

const quotaLimit = z
  .number({ error: messages.integer })
  .int(messages.integer)
  .min(UNLIMITED, messages.minValue(UNLIMITED))
  .max(Number.MAX_SAFE_INTEGER, messages.maxValue(Number.MAX_SAFE_INTEGER));

/** `POST …/set_quotas/`: the limits to change (others stay), -1 to lift one. */
export const setQuotasBody = z.strictObject(
  Object.fromEntries(QUOTA_NAMES.map((name) => [name, quotaLimit.optional()])) as {
    [K in QuotaName]: z.ZodOptional<typeof quotaLimit>;
  },
);
export type SetQuotasBody = z.infer<typeof setQuotasBody>;

export const quotaViewSchema = z.object({
  name: z.enum(QUOTA_NAMES),
  limit: z.number().int(),
  usage: z.number(),
});
export type QuotaView = z.infer<typeof quotaViewSchema>;
