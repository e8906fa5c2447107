import { offeringTypeToken, topology } from './topology';

describe('topology', () => {
  it('derives streams, subjects and durables from one namespace', () => {
    const names = topology('t1');
    expect(names.streams.marketplace).toEqual({ name: 'T1_MARKETPLACE', subjects: ['t1.marketplace.>'] });
    expect(names.subjects.orderSubmitted('VMware.VirtualMachine')).toBe(
      't1.marketplace.order.submitted.vmware-virtualmachine',
    );
    expect(names.consumers.adapterOrderSubmitted.filter).toBe(
      't1.marketplace.order.submitted.vmware-virtualmachine',
    );
    // nats-server 2.9 has one filter per consumer: both answers must share a prefix.
    expect(names.consumers.orderServiceOutcomes.filter).toBe('t1.vsphere.order.>');
    expect(
      [names.subjects.orderDone, names.subjects.orderErred].every((s) => s.startsWith('t1.vsphere.order.')),
    ).toBe(true);
  });

  it('names the sync request on the scheduler stream and the vSphere sync events under <ns>.vsphere.feed.', () => {
    const names = topology('t1');
    expect(names.streams.scheduler).toEqual({ name: 'T1_SCHEDULER', subjects: ['t1.scheduler.>'] });
    expect(names.consumers.adapterSyncRequested).toEqual({
      stream: 'T1_SCHEDULER',
      durable: 'vsphere-adapter-sync-requested',
      filter: 't1.scheduler.sync.requested.vmware-virtualmachine',
    });
    expect(names.subjects.syncRequested('VMware.VirtualMachine')).toBe(
      't1.scheduler.sync.requested.vmware-virtualmachine',
    );
    const events = [
      names.subjects.syncStarted,
      names.subjects.syncFinished,
      names.subjects.integrationStateChanged,
    ];
    // Under the adapter's feed subjects, so that the feed stream (and SSE) carries them.
    expect(events.every((s) => s.startsWith('t1.vsphere.feed.'))).toBe(true);
    // The order service's outcome and VmChanged consumers must not receive them.
    expect(events.some((s) => s.startsWith('t1.vsphere.order.'))).toBe(false);
    expect(events).not.toContain(names.consumers.orderServiceVmChanges.filter);
  });

  it('refuses a namespace that would break subjects or stream names', () => {
    expect(() => topology('a.b')).toThrow(/must match/);
    expect(() => topology('')).toThrow(/must match/);
  });

  it('makes offering types safe subject tokens', () => {
    expect(offeringTypeToken('Marketplace.Slurm')).toBe('marketplace-slurm');
  });
});
