/**
 * One offering's synchronisation, through the adapter as it runs (its module, Postgres, NATS), of a
 * large vcsim (`-cluster 10 -host 10 -vm 50`: 100 hosts, 550 VMs) behind the vcsim front, with 20
 * templates in a Content Library. Two syncs: the first reads every template's details; the second
 * (nothing changed) reads only each item, as a steady-state sync does.
 *
 * Per inventory type: requests over SOAP and REST, `seconds` (the type's read, wall time),
 * `wire_seconds` (the sum of its requests' times, waiting for vcsim and the front: request to last
 * byte; the template requests run 8 at a time, so theirs add up to more than the wall time) and
 * `decode_seconds` (SOAP: the read's time without the wire, i.e. XML decoding and mapping; REST:
 * the answer decoders' time). The types are read side by side, so their seconds overlap. Session set-up (one SOAP
 * Login, one REST session per vCenter and process, reused by later syncs) is not in the per-type
 * counts. Targets: at most 3 SOAP requests per type; REST a few plus one per library item.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { InventoryKind, IntegrationView } from '@app/contracts';
import { INVENTORY_KINDS } from '@app/contracts';
import type { InventoryMeter } from '../apps/vsphere-adapter/src/vcenter/adapters/inventory-meter';
import { startAdapter } from '../apps/vsphere-adapter/test/support/adapter-harness';
import { dataOf, saveAndSettle, syncAndSettle, ask } from '../apps/vsphere-adapter/test/support/requests';
import { VcsimLibrary } from '../apps/vsphere-adapter/test/support/vcsim-library';
import { openRequestClient } from '../test/support/nats-requests';
import { createTestDatabase } from '../test/support/test-database';
import { createTestNats } from '../test/support/test-nats';
import { startVcsimWithFront } from '../test/support/vcsim-front';
import { QUICK, size } from './support/quick';

const TEMPLATES = size(20, 2);
const round = (s: number): number => Math.round(s * 10_000) / 10_000;

interface KindFigures {
  soap_requests: number;
  rest_requests: number;
  rest_by_operation: Record<string, number>;
  seconds: number;
  wire_seconds: number;
  decode_seconds: number;
}

/** Collects what the adapter's inventory reader reports, per synchronisation. */
class Meter implements InventoryMeter {
  private figures = new Map<InventoryKind, KindFigures>();

  request(kind: InventoryKind, api: 'soap' | 'rest', operation: string, wire: number, decode: number): void {
    const f = this.of(kind);
    if (api === 'soap') f.soap_requests++;
    else {
      f.rest_requests++;
      f.rest_by_operation[operation] = (f.rest_by_operation[operation] ?? 0) + 1;
    }
    f.wire_seconds += wire;
    if (api === 'rest') f.decode_seconds += decode;
  }

  readDone(kind: InventoryKind, seconds: number): void {
    this.of(kind).seconds += seconds;
  }

  take(): Record<InventoryKind, KindFigures> {
    const out = {} as Record<InventoryKind, KindFigures>;
    for (const kind of INVENTORY_KINDS) {
      const f = this.of(kind);
      out[kind] = {
        ...f,
        seconds: round(f.seconds),
        wire_seconds: round(f.wire_seconds),
        // REST: the decoders' own time (its requests run 8 at a time, so their wire times overlap);
        // SOAP: the type's read time without its wire time (its 3 requests run one after another).
        decode_seconds: round(
          f.rest_requests > 0 ? f.decode_seconds : Math.max(0, f.seconds - f.wire_seconds),
        ),
      };
    }
    this.figures = new Map();
    return out;
  }

  private of(kind: InventoryKind): KindFigures {
    let f = this.figures.get(kind);
    if (f === undefined) {
      f = {
        soap_requests: 0,
        rest_requests: 0,
        rest_by_operation: {},
        seconds: 0,
        wire_seconds: 0,
        decode_seconds: 0,
      };
      this.figures.set(kind, f);
    }
    return f;
  }
}

function secondsBetween(view: IntegrationView): number {
  return (Date.parse(view.last_sync_finished ?? '') - Date.parse(view.last_sync_started ?? '')) / 1000;
}

async function main(): Promise<void> {
  const args = QUICK
    ? ['-cluster', '2', '-host', '2', '-vm', '10']
    : ['-cluster', '10', '-host', '10', '-vm', '50'];
  const sim = await startVcsimWithFront({ args, startTimeoutMs: 60_000 });
  const db = await createTestDatabase('bench_sync');
  const nats = await createTestNats('benchsync');
  const meter = new Meter();
  const adapter = await startAdapter({
    databaseUrl: db.url,
    namespace: nats.topology.namespace,
    env: { CREDENTIALS_KEYS: `bench:${randomBytes(32).toString('base64')}`, LOG_LEVEL: 'warn' },
    extras: { inventoryMeter: meter },
  });
  const client = await openRequestClient(nats.topology.namespace);
  const library = await VcsimLibrary.open(sim);
  try {
    const publishStart = process.hrtime.bigint();
    for (let i = 0; i < TEMPLATES; i++) await library.publish(`Ubuntu-${20 + i}.04`);
    console.log(
      `published ${TEMPLATES} templates in ${Number(process.hrtime.bigint() - publishStart) / 1e9} s`,
    );
    const offering = randomUUID();
    const first = await saveAndSettle(client, offering, {
      backend_url: sim.url,
      username: sim.username,
      password: sim.password,
      ca_pem: sim.caPem,
    });
    if (first.state !== 'OK') throw new Error(`the sync failed: ${first.error_message}`);
    const firstTypes = meter.take();
    const repeat = await syncAndSettle(client, offering);
    const repeatTypes = meter.take();
    dataOf(await ask(client, 'vsphere-internal.integration.get', { offering_uuid: offering }));
    const soapMax = Math.max(
      ...INVENTORY_KINDS.map((k) => Math.max(firstTypes[k].soap_requests, repeatTypes[k].soap_requests)),
    );
    const restFixed = repeatTypes.templates.rest_requests - TEMPLATES;
    for (const [label, types] of [
      ['first', firstTypes],
      ['repeat', repeatTypes],
    ] as const)
      for (const kind of INVENTORY_KINDS)
        console.log(
          `${label} ${kind}: ${types[kind].soap_requests} SOAP, ${types[kind].rest_requests} REST, ${types[kind].seconds} s (wire ${types[kind].wire_seconds} s)`,
        );
    console.log(
      JSON.stringify({
        bench: 'sync',
        vcsim: args.join(' '),
        templates: TEMPLATES,
        counts: first.counts,
        first_sync: { seconds: round(secondsBetween(first)), types: firstTypes },
        repeat_sync: { seconds: round(secondsBetween(repeat)), types: repeatTypes },
        targets: {
          soap_requests_per_type_max: soapMax,
          soap_at_most_3_per_type: soapMax <= 3,
          rest_first_sync: firstTypes.templates.rest_requests,
          rest_repeat_sync: repeatTypes.templates.rest_requests,
          rest_repeat_fixed_part: restFixed,
          rest_repeat_few_plus_one_per_item: restFixed >= 0 && restFixed <= 5,
        },
      }),
    );
  } finally {
    await library.close();
    await client.close();
    await adapter.close();
    await sim.stop();
    await nats.close();
    await db.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
