import { Injectable } from '@nestjs/common';
import { queryPerf, retrieveProperty, toPerfCounters, type PerfCounter } from '@app/vim25';
import type { VcenterConnection } from '../../integration/domain/vcenter-connection';
import type { VmCallOptions } from '../ports/vm-provisioner.port';
import type { StatsAnswer, StatsQuery, VmStatsSource } from '../ports/vm-stats.port';
import { Vim25VmProvisioner } from './vim25-vm-provisioner';

/** How long a vCenter's counter catalogue is kept: it changes only with a vCenter upgrade. */
const CATALOGUE_MS = 60 * 60 * 1000;

/** QueryPerf on libs/vim25 over the provisioner's short sessions. */
@Injectable()
export class Vim25VmStats implements VmStatsSource {
  private readonly catalogues = new Map<string, { at: number; counters: Promise<PerfCounter[]> }>();

  constructor(private readonly sessions: Vim25VmProvisioner) {}

  async queryPerf(
    connection: VcenterConnection,
    moref: string,
    query: StatsQuery,
    options: VmCallOptions,
  ): Promise<StatsAnswer> {
    const vim = await this.sessions.session(connection, 'short', options);
    const perfManager = vim.content.perfManager;
    if (perfManager === undefined) throw new Error('This vCenter has no PerformanceManager.');
    const catalogue = await this.catalogue(connection.url, () =>
      retrieveProperty(vim.caller, vim.content.propertyCollector, perfManager, 'perfCounter', options).then(
        toPerfCounters,
      ),
    );
    const keys = query.counters.map(
      (c) => catalogue.find((k) => k.group === c.group && k.name === c.name && k.rollup === c.rollup)?.key,
    );
    const [samples] = await queryPerf(
      vim.caller,
      perfManager,
      [
        {
          entity: { type: 'VirtualMachine', value: moref },
          counterIds: keys.filter((k): k is number => k !== undefined),
          intervalId: query.intervalId,
          startTime: query.startTime.toISOString(),
          endTime: query.endTime.toISOString(),
          maxSample: query.maxSample,
        },
      ],
      options,
    );
    return {
      timestamps: samples?.timestamps ?? [],
      values: keys.map((k) => (k === undefined ? undefined : samples?.series.get(k))),
    };
  }

  private async catalogue(url: string, read: () => Promise<PerfCounter[]>): Promise<PerfCounter[]> {
    const kept = this.catalogues.get(url);
    if (kept !== undefined && Date.now() - kept.at < CATALOGUE_MS) return kept.counters;
    const counters = read();
    this.catalogues.set(url, { at: Date.now(), counters });
    counters.catch(() => this.catalogues.delete(url));
    return counters;
  }
}
