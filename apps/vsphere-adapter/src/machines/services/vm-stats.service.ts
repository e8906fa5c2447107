import { Inject, Injectable } from '@nestjs/common';
import {
  ok,
  refuse,
  VM_STAT_METRICS,
  type RequestReply,
  type VmStatMetric,
  type VmStatPeriod,
  type VmStatsView,
  type VsphereCaller,
} from '@app/contracts';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { describeVcenterError } from '../../integration/domain/vcenter-error-message';
import { VcenterAccessService } from '../../integration/services/vcenter-access.service';
import { NOT_FOUND } from '../../services/request-guard.service';
import { VM_STATS_SOURCE, type StatsAnswer, type VmStatsSource } from '../../vcenter/ports/vm-stats.port';
import { METRIC_COUNTERS, PERIOD_QUERIES, toSeries } from '../domain/stats-plan';
import { visibilityOf, vmAccessRefusal } from '../domain/vm-access';
import { VmViewRepository } from '../repositories/vm-view.repository';

const NOT_CONNECTED = 'The offering of this virtual machine is not connected to a vCenter.';

/**
 * A VM's usage for the gateway. Every metric of a VM and period is read in one QueryPerf, and that
 * answer (or the call in flight) serves every caller of the same VM and period for
 * VSPHERE_STATS_CACHE_MS, so a page open in many browsers costs vCenter one call per window.
 */
@Injectable()
export class VmStatsService {
  private readonly recent = new Map<string, { at: number; answer: Promise<StatsAnswer> }>();

  constructor(
    @Inject(CONFIG) private readonly config: VsphereAdapterConfig,
    @Inject(VM_STATS_SOURCE) private readonly source: VmStatsSource,
    private readonly access: VcenterAccessService,
    private readonly vms: VmViewRepository,
  ) {}

  async stats(
    caller: VsphereCaller,
    uuid: string,
    query: { metric?: VmStatMetric[]; period?: VmStatPeriod },
  ): Promise<RequestReply<VmStatsView>> {
    const vm = await this.vms.get(visibilityOf(caller), uuid);
    if (vm === null) return refuse(404, NOT_FOUND);
    const place = { projectUuid: vm.view.project_uuid, customerUuid: vm.view.customer_uuid };
    const refusal = vmAccessRefusal(caller, place, 'read');
    if (refusal !== null) return refusal;
    const access = await this.access.forOffering(vm.view.offering_uuid);
    if (access === null) return refuse(409, NOT_CONNECTED);
    const period = query.period ?? 'hour';
    const plan = PERIOD_QUERIES[period];
    let answer: StatsAnswer;
    try {
      answer = await this.shared(`${vm.rowUuid}/${period}`, async () => {
        const endTime = new Date();
        const options = {
          signal: AbortSignal.timeout(this.config.VSPHERE_CALL_TIMEOUT_MS),
          timeoutMs: this.config.VSPHERE_CALL_TIMEOUT_MS,
        };
        return this.source.queryPerf(
          await access.connection(),
          vm.moref,
          {
            counters: VM_STAT_METRICS.map((m) => METRIC_COUNTERS[m]),
            intervalId: plan.intervalId,
            startTime: new Date(endTime.getTime() - plan.seconds * 1000),
            endTime,
            maxSample: plan.maxSample,
          },
          options,
        );
      });
    } catch (error) {
      return refuse(409, describeVcenterError(error));
    }
    const asked = query.metric ?? [...VM_STAT_METRICS];
    return ok({
      vm_uuid: vm.view.uuid,
      period,
      interval: plan.intervalId,
      series: asked.map((metric) =>
        toSeries(metric, answer.timestamps, answer.values[VM_STAT_METRICS.indexOf(metric)]),
      ),
    });
  }

  /** The answer of `key` from the last window, or a new call (a failed one is not kept). */
  private shared(key: string, read: () => Promise<StatsAnswer>): Promise<StatsAnswer> {
    const now = Date.now();
    for (const [k, kept] of this.recent)
      if (now - kept.at >= this.config.VSPHERE_STATS_CACHE_MS) this.recent.delete(k);
    const kept = this.recent.get(key);
    if (kept !== undefined) return kept.answer;
    const answer = read();
    this.recent.set(key, { at: now, answer });
    answer.catch(() => this.recent.delete(key));
    return answer;
  }
}
