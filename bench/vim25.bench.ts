/**
 * The inventory read of the vim25 client against a large vcsim (`-cluster 10 -host 10 -vm 50`,
 * 550 VMs): per inventory type, the seconds and the HTTP requests it takes, beside the floor (one
 * RetrieveServiceContent round trip). Requests are counted under the session, on the transport,
 * so every HTTP request is counted (a re-login would be too); `wire_seconds` is the part spent
 * waiting for vcsim, the rest is XML decoding and mapping.
 * Target: one property-collector round trip (RetrievePropertiesEx) per type, plus the container
 * view's create and destroy.
 *
 * Then the reference: the 550 VMs read by our client and by govmomi (bench/govmomi-reader, the
 * same property paths, the same view + RetrievePropertiesEx + DestroyView), each in its own
 * built process, interleaved against the same vcsim; `govmomi_comparison.ratio` is the median of
 * ours over the median of govmomi's (target ≤ 1.0), `rss_growth_mb` what a read adds to its
 * process's RSS (target < 150 MB for ours). What was tried to get there: bench/README.md.
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
  VM_PATHS,
} from '@app/vim25';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startVcsim, type VcsimInstance } from '../test/support/vcsim';
import {
  buildGovmomiReader,
  buildOurReader,
  govmomiReaderPaths,
  GOVMOMI_READER_BIN,
  OUR_READER_JS,
  ReaderProcess,
  type ReadSample,
} from './vim25-reader/reader-process';
import { QUICK, size } from './support/quick';

const RUNS = size(5, 1);
/** Interleaved rounds of the govmomi comparison (each: one read by each reader, order alternating). */
const ROUNDS = size(9, 1);

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

const stats = (samples: readonly ReadSample[], cold: ReadSample) => ({
  median_s: round(median(samples.map((x) => x.seconds))),
  min_s: round(Math.min(...samples.map((x) => x.seconds))),
  ...(cold.wire_seconds === undefined
    ? {}
    : { median_wire_s: round(median(samples.map((x) => x.wire_seconds ?? 0))) }),
  rss_mb_before_read: Math.round(cold.rss_mb),
  rss_growth_mb_first_read: Math.round(cold.rss_growth_mb),
  rss_growth_mb_max_later: Math.round(Math.max(...samples.map((x) => x.rss_growth_mb))),
});

/**
 * Ours and govmomi's reader, each a built process with its own login, reading every VM of `sim`
 * in turn: one cold read each (the memory figure of a fresh process), one warm-up, then ROUNDS
 * rounds of one read each, the order alternating so that neither always reads second.
 */
async function compareWithGovmomi(sim: VcsimInstance) {
  const goPaths = govmomiReaderPaths();
  if (JSON.stringify(goPaths) !== JSON.stringify(VM_PATHS)) {
    throw new Error(
      `bench/govmomi-reader reads ${goPaths.join(',')}, ours ${VM_PATHS.join(',')}: align them`,
    );
  }
  buildGovmomiReader();
  buildOurReader();
  const dir = await mkdtemp(join(tmpdir(), 'vim25-bench-'));
  const caFile = join(dir, 'ca.pem');
  await writeFile(caFile, sim.caPem);
  // Go's flag package reads `--name` as `-name`: one argument list for both readers.
  const login = ['--url', sim.url, '--ca', caFile, '--user', sim.username, '--pass', sim.password];
  const ours = new ReaderProcess('ours', process.execPath, [OUR_READER_JS, ...login]);
  const govmomi = new ReaderProcess('govmomi', GOVMOMI_READER_BIN, login);
  try {
    const oursCold = await ours.read();
    const govmomiCold = await govmomi.read();
    if (oursCold.vms !== govmomiCold.vms || oursCold.devices !== govmomiCold.devices) {
      throw new Error(
        `the readers disagree: ours ${oursCold.vms} VMs / ${oursCold.devices} devices, govmomi ${govmomiCold.vms} / ${govmomiCold.devices}`,
      );
    }
    await ours.read();
    await govmomi.read();
    const samples: Record<'ours' | 'govmomi', ReadSample[]> = { ours: [], govmomi: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const reader of r % 2 === 0 ? [ours, govmomi] : [govmomi, ours]) {
        samples[reader.name as 'ours' | 'govmomi'].push(await reader.read());
      }
      const last = (name: 'ours' | 'govmomi') => samples[name][samples[name].length - 1].seconds;
      console.log(`round ${r + 1}: ours ${round(last('ours'))} s, govmomi ${round(last('govmomi'))} s`);
    }
    const o = stats(samples.ours, oursCold);
    const g = stats(samples.govmomi, govmomiCold);
    return {
      vms: oursCold.vms,
      devices: oursCold.devices,
      rounds: ROUNDS,
      ours: o,
      govmomi: g,
      ratio: round(o.median_s / g.median_s),
    };
  } finally {
    await ours.stop();
    await govmomi.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = QUICK
    ? ['-cluster', '2', '-host', '2', '-vm', '10']
    : ['-cluster', '10', '-host', '10', '-vm', '50'];
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

    const comparison = await compareWithGovmomi(sim);

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
        govmomi_comparison: comparison,
        ratio_ours_over_govmomi: comparison.ratio,
        read_rss_growth_mb: comparison.ours.rss_growth_mb_first_read,
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
