import { z } from 'zod';
import { vmUuidField } from './virtual-machine.requests';
import { vsphereOperation } from './vsphere-operation';

export const VM_STAT_METRICS = ['cpu', 'memory', 'disk', 'network'] as const;
export type VmStatMetric = (typeof VM_STAT_METRICS)[number];

export const VM_STAT_PERIODS = ['hour', 'day', 'week'] as const;
export type VmStatPeriod = (typeof VM_STAT_PERIODS)[number];

/** `metric=cpu,memory` (or one name): each must be one of VM_STAT_METRICS; none given is all four. */
const metrics = () =>
  z
    .string()
    .max(64, { error: 'Ensure this field has no more than 64 characters.', abort: true })
    .transform((value, ctx) => {
      const names = value.split(',').map((name) => name.trim());
      const wrong = names.filter((name) => !(VM_STAT_METRICS as readonly string[]).includes(name));
      if (wrong.length > 0)
        ctx.addIssue({
          code: 'custom',
          message: `"${wrong[0]}" is not a valid choice: one of ${VM_STAT_METRICS.join(', ')}, or several separated by commas.`,
        });
      return [...new Set(names)] as VmStatMetric[];
    });

/**
 * `vsphere.vm.stats` (`GET /api/vmware-virtual-machine/{uuid}/stats/?metric=cpu,memory&period=hour`):
 * the VM's usage from vCenter's PerformanceManager: the last hour in real-time 20 s samples, the
 * last day in 5-minute and the last week in 30-minute historical samples. One QueryPerf for every
 * metric, shared for a few seconds by every caller of the same VM and period. 400 naming `metric`
 * or `period` for a value not in the lists.
 */
export const VM_STATS = vsphereOperation('vsphere.vm.stats', {
  params: z.strictObject({ uuid: vmUuidField() }),
  query: z.object({
    metric: metrics().optional(),
    period: z
      .enum(VM_STAT_PERIODS, { error: `Not a valid choice: one of ${VM_STAT_PERIODS.join(', ')}.` })
      .optional(),
  }),
});

/** One metric's series: vCenter's counter, its unit as shown, and the samples oldest first. */
export const vmStatSeriesSchema = z.object({
  metric: z.enum(VM_STAT_METRICS),
  /** vCenter's counter, `group.name.rollup` (`cpu.usage.average`). */
  counter: z.string(),
  /** `%` or `KBps`. */
  unit: z.string(),
  samples: z.array(z.object({ timestamp: z.iso.datetime({ offset: true }), value: z.number().nullable() })),
});

/** A VM's usage over a period (`interval` is the seconds between samples). */
export const vmStatsViewSchema = z.object({
  vm_uuid: z.string(),
  period: z.enum(VM_STAT_PERIODS),
  interval: z.number().int(),
  series: z.array(vmStatSeriesSchema),
});
export type VmStatsView = z.infer<typeof vmStatsViewSchema>;
export type VmStatSeries = z.infer<typeof vmStatSeriesSchema>;
