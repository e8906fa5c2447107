/**
 * Push from vCenter (issue 23): how fast a change made directly in vcsim reaches an SSE subscriber
 * as VmChanged through the adapter's live subscription (WaitForUpdatesEx), with the periodic pull
 * off, at each size in SIZES of managed VMs.
 *
 * For each size: vcsim grown to at least that many VMs (behind the vCenter 8 front), that many
 * recorded in the adapter's table as orders would have left them; once the subscription's first
 * comparison has recorded them all, SINGLES VMs are powered off one at a time, then BURST others at
 * once (BURST_CONCURRENCY calls in flight). Latency: from the start of the PowerOffVM_Task call
 * (vcsim changes the VM before it answers) to the VmChanged of that VM arriving on a staff SSE
 * stream, stamped every 2 ms. Also: the adapter's RSS after the burst, and the requests the
 * subscription sends in IDLE_MS with nothing changing (its `vsphere_vm_watch_requests_total`), per
 * minute. For the burst, also the answers it came in and the adapter's own time applying them
 * (`vsphere_vm_watch_lag_seconds`: an answer's arrival to its commit): vcsim 0.24 computes each
 * update of a wait by collecting the whole filter again, so its answer to a burst takes a time
 * that grows with updates × VMs, which a real vCenter does not spend. The front records when
 * each of vcsim's answers came and which objects it named, so each latency splits into vcsim's
 * part (the call to vcsim's answer naming the VM) and ours (that answer to the SSE event).
 *
 * `npm run bench -- drift [--quick]` (needs `npm run build`; `--quick`: 20 VMs, a burst of 10,
 * for CI); the last line is one JSON object, with the adapter's memory growth from the smallest size
 * to the largest (RSS, V8's heap, external, the rest). Knobs: BENCH_DRIFT_SIZES, BENCH_DRIFT_BURSTS,
 * BENCH_DRIFT_HEAP_DIR, BENCH_DRIFT_INSPECT_PORT, BENCH_DRIFT_ADAPTER_NODE_OPTIONS, BENCH_DRIFT_PULL
 * (below).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { powerOffVm, readVirtualMachines, type VimConnection, type VmInfo } from '@app/vim25';
import { parsePrometheusText } from '../test/support/prometheus-text';
import { SseClient } from '../test/support/sse-client';
import { VsphereMarketplace } from '../test/support/vsphere-marketplace';
import { syncLockKey } from '../apps/vsphere-adapter/src/integration/repositories/sync-lock.repository';
import { AllocationSampler } from './support/allocation-profile';
import { takeHeapSnapshot } from './support/heap-snapshot';
import { histogramTotals } from './support/metrics-scrape';
import { processMemory, type ProcessMemory } from './support/process-memory';
import { cpuSeconds } from './support/process-cpu';
import { QUICK, size } from './support/quick';
import { ascending, percentile, rssMb } from './support/stats';

const SIZES = (process.env.BENCH_DRIFT_SIZES ?? (QUICK ? '20' : '500,5000')).split(',').map(Number);
const SINGLES = size(30, 3);
const BURST = size(500, 10);
// BENCH_DRIFT_BURSTS=470,100: a smaller burst at a size (one per size, the last for the rest), for
// a machine where vcsim's collections of a large burst take too long; the burst means the same.
const BURSTS = process.env.BENCH_DRIFT_BURSTS?.split(',').map(Number);
const burstAt = (index: number) => BURSTS?.[Math.min(index, BURSTS.length - 1)] ?? BURST;
// BENCH_DRIFT_HEAP_DIR=<dir>: the adapter writes a heap snapshot there at the end of each size
// (after a full collection; `node bench/support/heap-summary.js a b` compares two), and its memory
// after that collection is reported too.
const HEAP_DIR = process.env.BENCH_DRIFT_HEAP_DIR;
// BENCH_DRIFT_INSPECT_PORT=<port>: the adapter opens its inspector there, and what it allocates
// during the first comparison (garbage included) is reported by where in our code.
const INSPECT_PORT = process.env.BENCH_DRIFT_INSPECT_PORT;
// BENCH_DRIFT_ADAPTER_NODE_OPTIONS='--max-old-space-size=160': Node options of the adapter's (V8's
// heap limits, to see what of its RSS is V8's headroom rather than memory it needs).
const ADAPTER_NODE_OPTIONS = process.env.BENCH_DRIFT_ADAPTER_NODE_OPTIONS;
// BENCH_DRIFT_PULL=1: at the end of each size (after the idle minute, before a heap snapshot) the
// periodic pull runs once over every VM, and its time and the adapter's peak RSS during it are
// reported. The adapter pulls every 2 s, but the bench holds the pull's advisory lock until then,
// so no pull runs during the rest of the measurements.
const PULL = process.env.BENCH_DRIFT_PULL === '1';
const BURST_CONCURRENCY = size(25, 5);
const IDLE_MS = size(60_000, 3_000);

const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const stats = (samples: number[]) => {
  const sorted = ascending(samples);
  return { p50_ms: round(percentile(sorted, 50)), p99_ms: round(percentile(sorted, 99)), n: samples.length };
};

/** Every VmChanged on a stream, with the moment it arrived (stamped every 2 ms). */
class StampedStream {
  private readonly arrivals = new Map<string, number[]>();
  private seen = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly stream: SseClient) {
    this.timer = setInterval(() => this.stamp(), 2);
  }

  /** How many VmChanged of `vmUuid` came so far. */
  count(vmUuid: string): number {
    this.stamp();
    return this.arrivals.get(vmUuid)?.length ?? 0;
  }

  /** When the `n`-th (from 0) VmChanged of `vmUuid` came; waits for it. */
  async nth(vmUuid: string, n: number, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const at = this.arrivals.get(vmUuid)?.[n];
      if (at !== undefined) return at;
      if (Date.now() > deadline) throw new Error(`no VmChanged #${n} of ${vmUuid} in ${timeoutMs} ms`);
      await sleep(2);
    }
  }

  get total(): number {
    this.stamp();
    return this.seen;
  }

  close(): void {
    clearInterval(this.timer);
    this.stream.close();
  }

  private stamp(): void {
    const now = performance.now();
    const messages = this.stream.events('VmChanged');
    for (; this.seen < messages.length; this.seen++) {
      const uuid = (JSON.parse(messages[this.seen].data) as { uuid: string }).uuid;
      const list = this.arrivals.get(uuid);
      if (list === undefined) this.arrivals.set(uuid, [now]);
      else list.push(now);
    }
  }
}

/** The sum of a metric's samples on a service's /metrics (those with the labels `match`). */
async function counter(
  metricsUrl: string,
  name: string,
  match: Record<string, string> = {},
): Promise<number> {
  const scrape = parsePrometheusText(await (await fetch(metricsUrl)).text());
  return scrape.samples
    .filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

async function record(market: VsphereMarketplace, vms: readonly VmInfo[]): Promise<void> {
  const db = new Client({ connectionString: market.db.url });
  await db.connect();
  try {
    for (const info of vms)
      await db.query(
        `INSERT INTO "vsphere"."virtual_machines" ("uuid", "offering_uuid", "order_uuid", "resource_uuid",
           "customer_uuid", "project_uuid", "backend_uuid", "moref", "name", "cpu", "cores_per_socket", "ram",
           "disk", "runtime_state")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 1, $11, 0, 'POWERED_ON')`,
        [
          randomUUID(),
          market.offering.uuid,
          randomUUID(),
          randomUUID(),
          market.customer.uuid,
          market.project.uuid,
          info.instanceUuid,
          info.ref.value,
          info.name,
          info.numCPU ?? 1,
          info.memoryMB ?? 1024,
        ],
      );
  } finally {
    await db.end();
  }
}

/** The offering's periodic-pull lock, taken on a connection of the bench's own (ended to free it). */
async function holdPullLock(market: VsphereMarketplace): Promise<Client> {
  const db = new Client({ connectionString: market.db.url });
  await db.connect();
  await db.query('SELECT pg_advisory_lock($1::bigint)', [syncLockKey(market.offering.uuid, 'vmPull')]);
  return db;
}

/**
 * Frees the pull lock and waits for the adapter's next pull (every 2 s) to end, sampling its RSS
 * every 100 ms: the pull's time, what it recorded, the peak RSS during it and the memory after.
 */
async function pullOnce(market: VsphereMarketplace, lock: Client): Promise<Record<string, unknown>> {
  const metrics = market.apps.adapter.metricsUrl;
  const pid = market.apps.adapter.pid!;
  const before = await histogramTotals(metrics, 'vsphere_vm_pull_seconds');
  const cpuBefore = cpuSeconds(pid);
  const rssBefore = rssMb(pid);
  let peak = rssBefore;
  await lock.end();
  const deadline = Date.now() + 600_000;
  for (;;) {
    peak = Math.max(peak, rssMb(pid));
    const now = await histogramTotals(metrics, 'vsphere_vm_pull_seconds');
    if (now.count > before.count)
      return {
        seconds: round(now.sum - before.sum, 2),
        // The adapter's CPU over the pull: what a heap cap could cost in collections.
        adapter_cpu_seconds: round(cpuSeconds(pid) - cpuBefore, 2),
        adapter_rss_before_mb: round(rssBefore),
        adapter_peak_rss_mb: round(peak),
        adapter_memory_after: await processMemory(metrics),
      };
    if (Date.now() > deadline) throw new Error('no periodic pull ended within 10 minutes');
    await sleep(100);
  }
}

async function measure(size: number, burstSize: number): Promise<Record<string, unknown>> {
  // vcsim puts -vm VMs on the standalone host and in each cluster's pool: 11 places.
  const perPlace = Math.ceil((size + SINGLES) / 11) + 1;
  const statementsFile = join(tmpdir(), `bench-drift-${process.pid}-${size}.count`);
  const market = await VsphereMarketplace.start(`benchpush${size}`, {
    vcsimArgs: ['-cluster', '10', '-host', '2', '-vm', String(perPlace)],
    adapterEnv: {
      VSPHERE_VM_PULL_INTERVAL_MS: PULL ? '2000' : '0',
      // The adapter counts the statements it sends to Postgres (see the counter's comment).
      NODE_OPTIONS: [
        `--require ${join(__dirname, 'support', 'pg-query-counter.js')}`,
        ...(HEAP_DIR === undefined ? [] : [`--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${HEAP_DIR}`]),
        ...(INSPECT_PORT === undefined ? [] : [`--inspect=127.0.0.1:${INSPECT_PORT}`]),
        ...(ADAPTER_NODE_OPTIONS === undefined ? [] : [ADAPTER_NODE_OPTIONS]),
      ].join(' '),
      PG_QUERY_COUNT_FILE: statementsFile,
    },
    // A burst of 500 VmChanged at once must not overflow the bench's own stream.
    env: { SSE_QUEUE_LIMIT_BYTES: String(64 * 1024 * 1024) },
  });
  let stream: StampedStream | undefined;
  let pullLock: Client | undefined;
  try {
    const vim: VimConnection = await market.vim();
    const vms = (await readVirtualMachines(vim)).filter(
      (info) => info.instanceUuid !== undefined && !info.template && info.powerState === 'poweredOn',
    );
    if (vms.length < size) throw new Error(`vcsim has ${vms.length} running VMs, fewer than ${size}`);
    const managed = vms.slice(0, size);
    const metrics = market.apps.adapter.metricsUrl;
    const sampler =
      INSPECT_PORT === undefined ? undefined : await AllocationSampler.connect(Number(INSPECT_PORT));
    await sampler?.start();
    // Held before any VM is recorded: until then the adapter has no offering with VMs to pull.
    pullLock = PULL ? await holdPullLock(market) : undefined;
    const firstStarted = performance.now();
    await record(market, managed);
    // The first comparison records every VM (the rows have no disks or adapters yet); the
    // subscription is live once it is done, and the outbox drained once all is published.
    const settled = async () =>
      (await counter(metrics, 'vsphere_vm_watch_state', { state: 'live' })) === 1 &&
      (await counter(metrics, 'outbox_backlog')) === 0;
    const deadline = Date.now() + 900_000;
    while (!(await settled())) {
      if (Date.now() > deadline) throw new Error('the first comparison did not end in 15 minutes');
      await sleep(200);
    }
    const firstComparisonSeconds = (performance.now() - firstStarted) / 1000;
    // The first comparison holds the most at once (every managed VM's state, page by page).
    const rssAfterFirstComparison = rssMb(market.apps.adapter.pid!);
    const memoryAfterFirstComparison = await processMemory(metrics);
    const firstComparisonAllocations = await sampler?.stop();
    stream = new StampedStream(
      await SseClient.open(`${market.api.base}/api/events?type=VmChanged`, {
        token: market.api.tokens.staff,
      }),
    );
    const uuidOf = (info: VmInfo) => info.instanceUuid!;

    // When vcsim's answer first named a VM after `since` (the front sees it come).
    const answeredAt = (since: number, until: number) => {
      const first = new Map<string, number>();
      for (const answer of market.sim.front.vcsimUpdateAnswers(since))
        if (answer.at <= until)
          for (const moref of answer.objects) if (!first.has(moref)) first.set(moref, answer.at);
      return first;
    };

    const singles: number[] = [];
    const singlesOurs: number[] = [];
    for (const info of managed.slice(0, SINGLES)) {
      const before = stream.count(uuidOf(info));
      const started = performance.now();
      await powerOffVm(vim, info.ref);
      const arrived = await stream.nth(uuidOf(info), before, 30_000);
      singles.push(arrived - started);
      const answered = answeredAt(started, arrived).get(info.ref.value);
      if (answered !== undefined) singlesOurs.push(arrived - answered);
    }

    console.log(
      JSON.stringify({
        managed_vms: size,
        first_comparison_seconds: round(firstComparisonSeconds),
        single: { ...stats(singles), ours: stats(singlesOurs) },
      }),
    );
    const reads = () =>
      counter(metrics, 'vsphere_vm_watch_requests_total', { method: 'RetrievePropertiesEx' });
    const readsBefore = await reads();
    const statements = () => Number(readFileSync(statementsFile, 'utf8'));
    const adapterPid = market.apps.adapter.pid!;
    const statementsBefore = statements();
    const cpuBefore = cpuSeconds(adapterPid);
    const lagBefore = await histogramTotals(metrics, 'vsphere_vm_watch_lag_seconds');
    const burstVms = managed.slice(SINGLES, SINGLES + burstSize);
    const burstBefore = new Map(burstVms.map((info) => [uuidOf(info), stream!.count(uuidOf(info))]));
    const starts = new Map<string, number>();
    const burstStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: BURST_CONCURRENCY }, async () => {
        while (next < burstVms.length) {
          const info = burstVms[next++];
          starts.set(uuidOf(info), performance.now());
          await powerOffVm(vim, info.ref);
        }
      }),
    );
    const burstSent = performance.now();
    const arrivals = await Promise.all(
      burstVms.map((info) => stream!.nth(uuidOf(info), burstBefore.get(uuidOf(info))!, 900_000)),
    );
    const burst = burstVms.map((info, i) => arrivals[i] - starts.get(uuidOf(info))!);
    const lastArrival = Math.max(...arrivals);
    // vcsim's part (its call to its answer naming the VM) and ours (that answer to the SSE event).
    const answered = answeredAt(burstStarted, lastArrival);
    const burstVcsim: number[] = [];
    const burstOurs: number[] = [];
    burstVms.forEach((info, i) => {
      const at = answered.get(info.ref.value);
      if (at === undefined) return; // recorded by a full comparison, not from an answer
      burstVcsim.push(at - starts.get(uuidOf(info))!);
      burstOurs.push(arrivals[i] - at);
    });
    const lastAnswered = Math.max(...answered.values());
    // The adapter's own part: from each answer's arrival to the commit of what it changed.
    const lagAfter = await histogramTotals(metrics, 'vsphere_vm_watch_lag_seconds');
    const answers = lagAfter.count - lagBefore.count;
    const burstReads = (await reads()) - readsBefore;
    const adapterCpu = cpuSeconds(adapterPid) - cpuBefore;
    await sleep(300); // the counter writes every 100 ms
    const burstStatements = statements() - statementsBefore;
    const rss = rssMb(market.apps.adapter.pid!);
    const memoryAfterBurst = await processMemory(metrics);

    const requests = () => counter(metrics, 'vsphere_vm_watch_requests_total');
    const idleBefore = await requests();
    await sleep(IDLE_MS);
    const idleRequests = (await requests()) - idleBefore;
    const pull = pullLock === undefined ? undefined : await pullOnce(market, pullLock);
    pullLock = undefined;
    let afterFullGc: { memory: ProcessMemory; heap_snapshot: string } | undefined;
    if (HEAP_DIR !== undefined) {
      const snapshot = await takeHeapSnapshot(adapterPid, HEAP_DIR);
      afterFullGc = { memory: await processMemory(metrics), heap_snapshot: snapshot };
    }
    return {
      managed_vms: size,
      vcenter_vms: vms.length,
      first_comparison_seconds: round(firstComparisonSeconds),
      single: { ...stats(singles), ours: stats(singlesOurs) },
      burst: {
        ...stats(burst),
        // Per VM: vcsim's part (call start to vcsim's answer naming it, as the front saw it come)
        // and ours (that answer to its VmChanged on the SSE stream); VMs no answer named do not count.
        vcsim: stats(burstVcsim),
        ours: stats(burstOurs),
        vcsim_answered_seconds: round((lastAnswered - burstStarted) / 1000, 2),
        after_vcsim_answered_seconds: round((lastArrival - lastAnswered) / 1000, 2),
        calls_seconds: round((burstSent - burstStarted) / 1000, 2),
        applied_seconds: round((lastArrival - burstStarted) / 1000, 2),
        after_last_call_seconds: round((lastArrival - burstSent) / 1000, 2),
        answers,
        // The RetrievePropertiesEx the subscription sent for them (0: every change came whole).
        vcenter_reads: burstReads,
        // The adapter's CPU and its Postgres statements over the burst, per VM the burst changed
        // (the heartbeats of the wait in between included): figures a busy machine does not skew.
        adapter_cpu_ms_per_vm: round((adapterCpu * 1000) / burstVms.length, 2),
        statements_per_vm: round(burstStatements / burstVms.length, 2),
        adapter_apply_seconds: round(lagAfter.sum - lagBefore.sum, 2),
      },
      adapter_rss_mb: round(rss),
      adapter_rss_after_first_comparison_mb: round(rssAfterFirstComparison),
      // Where the RSS is: V8's heap, what objects own outside it, the rest (prom-client's figures).
      ...(firstComparisonAllocations === undefined
        ? {}
        : { first_comparison_allocated: firstComparisonAllocations }),
      adapter_memory: {
        after_first_comparison: memoryAfterFirstComparison,
        after_burst: memoryAfterBurst,
        ...(afterFullGc === undefined
          ? {}
          : { after_full_gc: afterFullGc.memory, heap_snapshot: afterFullGc.heap_snapshot }),
      },
      idle_requests_per_minute: round((idleRequests * 60_000) / IDLE_MS, 2),
      ...(pull === undefined ? {} : { pull }),
    };
  } finally {
    await pullLock?.end().catch(() => undefined);
    stream?.close();
    await market.stop();
    rmSync(statementsFile, { force: true });
  }
}

async function main(): Promise<void> {
  if (HEAP_DIR !== undefined) mkdirSync(HEAP_DIR, { recursive: true });
  const results: Record<string, unknown>[] = [];
  for (const [index, size] of SIZES.entries()) {
    results.push(await measure(size, burstAt(index)));
    console.log(JSON.stringify(results.at(-1)));
  }
  const rss = results.map((r) => r.adapter_rss_mb as number);
  console.log(
    JSON.stringify({
      drift: {
        sizes: results,
        rss_growth_mb: rss.length > 1 ? round(rss[rss.length - 1] - rss[0]) : null,
        memory_growth: results.length > 1 ? growth(results[0], results[results.length - 1]) : null,
      },
    }),
  );
}

/**
 * The adapter's memory at the largest size less that at the smallest, at each moment measured:
 * the RSS growth the issue bounds (50 MB from 500 to 5,000 VMs) and how much of it is V8's heap.
 */
function growth(first: Record<string, unknown>, last: Record<string, unknown>): Record<string, unknown> {
  type Memory = Record<string, ProcessMemory>;
  const from = first.adapter_memory as Memory;
  const to = last.adapter_memory as Memory;
  const moments: Record<string, unknown> = {};
  for (const moment of ['after_first_comparison', 'after_burst', 'after_full_gc'])
    if (from[moment] !== undefined && to[moment] !== undefined)
      moments[moment] = Object.fromEntries(
        (Object.keys(to[moment]) as (keyof ProcessMemory)[]).map((key) => [
          key,
          round(to[moment][key] - from[moment][key]),
        ]),
      );
  return { from_vms: first.managed_vms, to_vms: last.managed_vms, ...moments };
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
