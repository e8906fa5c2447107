import type { Offering } from '../api/types';

/**
 * A month of the plan for the limits asked: each component's price per billing unit times the
 * amount asked in that unit (RAM and disk are asked in MiB and billed per GB: `factor` 1024).
 * Undefined when the plan is unknown or an amount is not a number. The dry run's `cost` wins when
 * the server gives one; this is what the form shows meanwhile.
 */
export function monthlyEstimate(
  offering: {
    components: Pick<Offering['components'][number], 'type' | 'factor'>[];
    plans: Pick<Offering['plans'][number], 'uuid' | 'prices'>[];
  },
  planUuid: string,
  asked: Record<string, string>,
): string | undefined {
  const plan = offering.plans.find((p) => p.uuid === planUuid);
  if (!plan || offering.components.length === 0) return undefined;
  let total = 0;
  for (const component of offering.components) {
    const text = asked[component.type] ?? '';
    const amount = text.trim() === '' ? 0 : Number(text);
    if (!Number.isFinite(amount)) return undefined;
    total += (Number(plan.prices[component.type] ?? 0) * amount) / (component.factor || 1);
  }
  return total.toFixed(2);
}
