/**
 * The inventory read of the vim25 client against a large vcsim (`-cluster 10 -host 10 -vm 50`):
 * per inventory type, the seconds and the HTTP requests it takes, beside the floor (one
 * RetrieveServiceContent round trip). Requests are counted under the session, on the transport,
 * so every HTTP request is counted (a re-login would be too); `wire_seconds` is the part spent
 * waiting for vcsim, the rest is XML decoding and mapping.
 * Target: one property-collector round trip (RetrievePropertiesEx) per type, plus the container
 * view's create and destroy.
 */
import {
  readClusters,
  readDatacenters,
  readDatastores,
  readHosts,
  readNetworks,
  readResourcePools,
  readVirtualMachines,
  readVmFolders,
  retrieveServiceContent,
  SoapTransport,
  VimSession,
  type SessionTransport,
  type SoapCaller,
  type SoapReply,
  type VimContext,
} from '@app/vim25';
import { startVcsim } from '../test/support/vcsim';

const RUNS = 5;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (s: number): number => Math.round(s * 10_000) / 10_000;
const seconds = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;

/**
 * The SOAP transport with a meter: every HTTP request the session sends (logins included) is
 * counted by SOAP method, with the time spent waiting for the answer (request + body read).
 */
class MeteredTransport implements SessionTransport {
  readonly sdkUrl: URL;
  private readonly counts = new Map<string, number>();
  private wire = 0;

  constructor(private readonly inner: SoapTransport) {
    this.sdkUrl = inner.sdkUrl;
  }

  async call(...args: Parameters<SoapCaller['call']>): Promise<SoapReply> {
    this.counts.set(args[0], (this.counts.get(args[0]) ?? 0) + 1);
    const t = process.hrtime.bigint();
    try {
      return await this.inner.call(...args);
    } finally {
      this.wire += seconds(t);
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  take(): { requests: number; property_collector_round_trips: number; wire_seconds: number } {
    const requests = [...this.counts.values()].reduce((a, b) => a + b, 0);
    const pc =
      (this.counts.get('RetrievePropertiesEx') ?? 0) + (this.counts.get('ContinueRetrievePropertiesEx') ?? 0);
    const wire = this.wire;
    this.counts.clear();
    this.wire = 0;
    return { requests, property_collector_round_trips: pc, wire_seconds: wire };
  }
}

async function main(): Promise<void> {
  const args = ['-cluster', '10', '-host', '10', '-vm', '50'];
  const startedAt = process.hrtime.bigint();
  const sim = await startVcsim({ args, startTimeoutMs: 60_000 });
  const vcsimStartSeconds = seconds(startedAt);
  const options = {
    url: sim.url,
    caPem: sim.caPem,
    username: sim.username,
    password: sim.password,
    keepAliveMs: 0,
  };
  const meter = new MeteredTransport(new SoapTransport(options));
  const session = new VimSession(options, meter);
  try {
    const ctx: VimContext = {
      caller: session,
      content: await session.serviceContent(),
      serverAddress: meter.sdkUrl.host,
    };
    await session.ensureLoggedIn();
    const login = meter.take();

    const floor: number[] = [];
    for (let i = 0; i < 21; i++) {
      const t = process.hrtime.bigint();
      await retrieveServiceContent(meter);
      floor.push(seconds(t));
    }

    const readers: Record<string, (c: VimContext) => Promise<readonly unknown[]>> = {
      datacenters: readDatacenters,
      clusters: readClusters,
      hosts: readHosts,
      resource_pools: readResourcePools,
      datastores: readDatastores,
      networks: readNetworks,
      vm_folders: readVmFolders,
      virtual_machines: readVirtualMachines,
    };
    meter.take();
    const types: Record<string, unknown> = {};
    let totalSeconds = 0;
    let totalRequests = 0;
    for (const [name, read] of Object.entries(readers)) {
      await read(ctx); // warm-up
      meter.take();
      const times: number[] = [];
      const wire: number[] = [];
      let objects = 0;
      let counted = { requests: 0, property_collector_round_trips: 0, wire_seconds: 0 };
      for (let run = 0; run < RUNS; run++) {
        const t = process.hrtime.bigint();
        objects = (await read(ctx)).length;
        times.push(seconds(t));
        counted = meter.take();
        wire.push(counted.wire_seconds);
      }
      totalSeconds += median(times);
      totalRequests += counted.requests;
      types[name] = {
        objects,
        seconds: round(median(times)),
        requests: counted.requests,
        property_collector_round_trips: counted.property_collector_round_trips,
        wire_seconds: round(median(wire)),
      };
      console.log(`${name}: ${objects} objects, ${round(median(times))} s, ${counted.requests} requests`);
    }

    console.log(
      JSON.stringify({
        bench: 'vim25',
        vcsim: args.join(' '),
        vcsim_start_s: round(vcsimStartSeconds),
        runs_per_type: RUNS,
        login_requests: login.requests,
        floor_retrieve_service_content_s: round(median(floor)),
        types,
        total: { seconds: round(totalSeconds), requests: totalRequests },
      }),
    );
  } finally {
    await session.close();
    await sim.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
