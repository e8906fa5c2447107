import {
  QUOTA_LABELS,
  QUOTA_NAMES,
  UNLIMITED,
  VMWARE_VM_TYPE,
  type OrderType,
  type QuotaName,
  type QuotaView,
} from '@app/contracts';

/**
 * An amount of each quota: what is used, or what an order asks for. `cost` is in cents, so sums
 * and comparisons stay exact; limits are in whole currency units.
 */
export type QuotaAmounts = Record<QuotaName, number>;
/** The limits set on an organisation or project; a quota without one is unlimited. */
export type QuotaLimits = Partial<Record<QuotaName, number>>;

export const NOTHING: QuotaAmounts = { vcpu: 0, ram: 0, storage: 0, max_instances: 0, cost: 0 };

/** A monthly cost as the order service stores it (`"22.00"`, or null) in cents. Pure. */
export function centsOf(cost: string | null | undefined): number {
  if (cost === null || cost === undefined || cost === '') return 0;
  const [units, fraction = ''] = cost.split('.');
  const sign = units.startsWith('-') ? -1 : 1;
  return sign * (Math.abs(Number(units)) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2)));
}

/** A limit in the unit of its usage (a cost's in cents). */
const inUsageUnit = (name: QuotaName, limit: number) => (name === 'cost' ? limit * 100 : limit);
/** An amount as a refusal or a view shows it (a cost in currency units, cents kept). */
const shown = (name: QuotaName, amount: number) =>
  name === 'cost' ? (amount / 100).toFixed(2) : String(amount);

/** The monthly cost before and after an order (`cost` of the resource and of the order). */
export interface CostChange {
  readonly before: string | null;
  readonly after: string | null;
}

/** One scope an order must fit in, as a refusal names it. */
export interface QuotaScope {
  readonly label: 'Project' | 'Organisation';
  readonly limits: QuotaLimits;
  readonly usage: QuotaAmounts;
}

const value = (limits: Record<string, number> | null, key: string): number => {
  const found = limits?.[key];
  return typeof found === 'number' && Number.isFinite(found) ? found : 0;
};

/**
 * What an order adds to its scopes' usage: a new VM's size (and one VM) for a Create, the growth
 * only for an Update (a shrink asks for nothing, so it passes even a quota already exceeded). VM
 * limits are `cpu`, `ram` and `disk` (MiB). Pure.
 */
export function growthOf(
  before: Record<string, number> | null,
  after: Record<string, number>,
  cost: CostChange = { before: null, after: null },
): QuotaAmounts {
  const grow = (key: string) => Math.max(0, value(after, key) - value(before, key));
  return {
    vcpu: grow('cpu'),
    ram: grow('ram'),
    storage: grow('disk'),
    max_instances: before ? 0 : 1,
    cost: Math.max(0, centsOf(cost.after) - (before ? centsOf(cost.before) : 0)),
  };
}

/** A quota that growth would pass, and the refusal's message. */
export interface QuotaBreach {
  readonly quota: QuotaName;
  readonly message: string;
}

/**
 * The quota that `asks` would pass in `scopes` (the project's first, then the organisation's), with
 * the message naming it, its limit, the usage and what the `asker` (an order, or a request on a
 * VM's own endpoint) asks for; null when it fits. Only what is added is checked: a quota lowered
 * below its usage refuses growth and leaves what exists alone. Pure.
 */
export function quotaBreach(
  scopes: readonly QuotaScope[],
  asks: QuotaAmounts,
  asker: 'order' | 'request' = 'order',
): QuotaBreach | null {
  for (const scope of scopes)
    for (const name of QUOTA_NAMES) {
      const limit = scope.limits[name];
      const ask = asks[name];
      if (limit === undefined || ask <= 0 || scope.usage[name] + ask <= inUsageUnit(name, limit)) continue;
      const used = scope.usage[name];
      return {
        quota: name,
        message:
          `${scope.label} quota for ${QUOTA_LABELS[name]} is ${limit}; ${shown(name, used)} ` +
          `${used === 1 && name !== 'cost' ? 'is' : 'are'} in use or ordered; this ${asker} asks for ${shown(name, ask)}.`,
      };
    }
  return null;
}

/** The refusal of an order asking for `asks` in `scopes`, or null when it fits (see quotaBreach). Pure. */
export function quotaRefusal(scopes: readonly QuotaScope[], asks: QuotaAmounts): string | null {
  return quotaBreach(scopes, asks)?.message ?? null;
}

/**
 * Why a project's new limit is refused, or null: a project never gets more than its organisation
 * (nor no limit while the organisation has one). Pure.
 */
export function projectLimitRefusal(
  name: QuotaName,
  wanted: number,
  organisation: QuotaLimits,
): string | null {
  const ceiling = organisation[name];
  if (ceiling === undefined) return null;
  if (wanted === UNLIMITED)
    return `The organisation's quota for ${QUOTA_LABELS[name]} is ${ceiling}: a project quota cannot be unlimited.`;
  if (wanted > ceiling)
    return `A project quota for ${QUOTA_LABELS[name]} cannot be above the organisation's (${ceiling}).`;
  return null;
}

/** Waldur's list of quotas, every name present, -1 for no limit. Pure. */
export function quotaViews(limits: QuotaLimits, usage: QuotaAmounts): QuotaView[] {
  return QUOTA_NAMES.map((name) => ({
    name,
    limit: limits[name] ?? UNLIMITED,
    usage: name === 'cost' ? usage.cost / 100 : usage[name],
  }));
}

/**
 * What an order of `type` on an offering of `offeringType` adds to usage: quotas count vSphere VMs
 * only, and a Terminate adds nothing. `before`: the resource's limits (null for a Create). Pure.
 */
export function orderGrowth(
  offeringType: string,
  type: OrderType,
  before: Record<string, number> | null,
  after: Record<string, number>,
  cost?: CostChange,
): QuotaAmounts {
  if (offeringType !== VMWARE_VM_TYPE || type === 'Terminate') return NOTHING;
  return growthOf(type === 'Create' ? null : before, after, cost);
}
