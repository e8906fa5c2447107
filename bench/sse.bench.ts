/**
 * SSE fan-out through the real gateway: 1,000 concurrent subscribers of `GET /api/events`, the delay
 * from an event's publish to its arrival at each subscriber, and the gateway's RSS with them. Compare
 * with shared/floors.md §3–4 (bare Node fan-out at N=1,000: p50 ≈ 9.7 ms, p99 ≈ 22.5 ms; commit →
 * SSE client p50 ≈ 10 ms, p99 ≈ 24 ms; RSS ≈ 30 KB per connection).
 *
 * The order service and the gateway run as processes from `dist/` (`npm run build` first), on a
 * database and NATS namespace of their own. Every subscriber is a project member (access checked
 * per event). The bench publishes OrderStateChanged envelopes on the feed subject as the order
 * service's relay does: 5 warm-up then 50 measured, one per 100 ms; the publish time is taken just
 * before `js.publish`. The subscribers are raw sockets in this process (as the floors' clients),
 * one arrival time per read, the order found by its URL in the bytes. Beside it, the mean delay a
 * client polling every 3 s would see: half the period plus one REST round trip (measured).
 */
import { connect as netConnect, type Socket } from 'node:net';
import { ApiSession, type Json } from '../test/support/api-session';
import { ApiSystem } from '../test/support/api-system';
import { FeedPublisher, orderView, type FeedScope } from '../test/support/feed-publisher';
import { percentile, rssMb } from './support/stats';
import { size } from './support/quick';

const SUBSCRIBERS = Number(process.env.SSE_BENCH_SUBSCRIBERS ?? size(1_000, 20));
const WARMUP = 5;
const MEASURED = size(50, 5);
const GAP_MS = 100;
const POLL_PERIOD_MS = 3_000;
const MARKER = 'marketplace-orders/';

const round = (value: number) => Math.round(value * 100) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One raw SSE subscriber: records when each order's URL first appears in what it reads. */
function subscribe(
  port: number,
  token: string,
  onOrder: (uuid: string, at: bigint) => void,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(port, '127.0.0.1');
    let carry = '';
    let lastUuid = '';
    let open = false;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      const at = process.hrtime.bigint();
      const text = carry + chunk;
      if (!open && text.startsWith('HTTP/1.1 ')) {
        if (!text.startsWith('HTTP/1.1 200')) reject(new Error(text.slice(0, 200)));
        open = true;
        resolve(socket);
      }
      // A plain scan, as cheap as the floors' clients: the order's URL is the first field of `data:`.
      for (let at0 = text.indexOf(MARKER); at0 >= 0; at0 = text.indexOf(MARKER, at0 + 1)) {
        const uuid = text.slice(at0 + MARKER.length, at0 + MARKER.length + 36);
        // The carried tail may hold the one already counted.
        if (uuid.length === 36 && uuid !== lastUuid) onOrder(uuid, at);
        if (uuid.length === 36) lastUuid = uuid;
      }
      carry = text.slice(-80);
    });
    socket.on('error', reject);
    socket.write(
      `GET /api/events?type=OrderStateChanged HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Authorization: Token ${token}\r\nAccept: text/event-stream\r\n\r\n`,
    );
  });
}

async function main(): Promise<void> {
  const system = await ApiSystem.start('ssebench', {
    gatewayEnv: {
      // Every subscriber is the one member: the per-user stream cap is lifted to their number.
      SSE_MAX_STREAMS_PER_USER: String(SUBSCRIBERS),
      ...(process.env.SSE_BENCH_GATEWAY_NODE_OPTIONS
        ? { NODE_OPTIONS: process.env.SSE_BENCH_GATEWAY_NODE_OPTIONS }
        : {}),
    },
  });
  try {
    const api = new ApiSession(system.base, system.db.url);
    api.tokens.staff = system.staffToken;
    await api.user('member', 'staff');
    const customer = (await api.ok<Json>('staff', 'POST', '/api/customers/', { name: 'Bench Org' }))
      .uuid as string;
    const project = (
      await api.ok<Json>('staff', 'POST', '/api/projects/', {
        name: 'Bench',
        customer: `${api.base}/api/customers/${customer}/`,
      })
    ).uuid as string;
    await api.ok('staff', 'POST', `/api/projects/${project}/add_user/`, {
      user: api.users.member,
      role: 'PROJECT.MEMBER',
    });
    const scope: FeedScope = {
      project_uuid: project,
      customer_uuid: customer,
      provider_uuid: customer,
      offering_uuid: '0b0b0b0b-0000-4000-8000-00000000000b',
    };
    const feed = new FeedPublisher(system.nats);
    const pid = system.gateway.pid!;

    // A REST round trip, for the polling comparison (what a 3 s poller pays on top of the wait).
    const rest: number[] = [];
    for (let i = 0; i < 50; i++) {
      const started = process.hrtime.bigint();
      await api.ok('member', 'GET', '/api/users/me/');
      rest.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    rest.sort((a, b) => a - b);

    await sleep(500);
    const rssEmpty = rssMb(pid);
    const publishedAt = new Map<string, bigint>();
    const delays: number[] = [];
    const perEvent = new Map<string, number>();
    const firstAndLast = new Map<string, [number, number]>();
    const onOrder = (uuid: string, at: bigint) => {
      const start = publishedAt.get(uuid);
      if (start === undefined) return;
      const delay = Number(at - start) / 1e6;
      delays.push(delay);
      perEvent.set(uuid, (perEvent.get(uuid) ?? 0) + 1);
      const seen = firstAndLast.get(uuid);
      firstAndLast.set(uuid, seen ? [Math.min(seen[0], delay), Math.max(seen[1], delay)] : [delay, delay]);
    };
    const sockets: Socket[] = [];
    const connecting = Date.now();
    for (let i = 0; i < SUBSCRIBERS; i += 100) {
      const batch = Math.min(100, SUBSCRIBERS - i);
      sockets.push(
        ...(await Promise.all(
          Array.from({ length: batch }, () => subscribe(system.port, api.tokens.member, onOrder)),
        )),
      );
    }
    const connectSeconds = (Date.now() - connecting) / 1000;
    await sleep(1_000);
    const rssOpen = rssMb(pid);

    const measured: string[] = [];
    for (let i = 0; i < WARMUP + MEASURED; i++) {
      const order = orderView(scope);
      if (i >= WARMUP) measured.push(order.uuid);
      const started = process.hrtime.bigint();
      if (i >= WARMUP) publishedAt.set(order.uuid, started);
      await feed.order(order);
      await sleep(GAP_MS);
    }
    await sleep(2_000);
    const rssAfter = rssMb(pid);
    for (const socket of sockets) socket.destroy();

    delays.sort((a, b) => a - b);
    const complete = measured.every((uuid) => perEvent.get(uuid) === SUBSCRIBERS);
    const result = {
      bench: 'sse',
      subscribers: SUBSCRIBERS,
      events: MEASURED,
      every_subscriber_got_every_event: complete,
      deliveries: delays.length,
      connect_seconds: round(connectSeconds),
      publish_to_subscriber_ms: {
        p50: round(percentile(delays, 50)),
        p90: round(percentile(delays, 90)),
        p99: round(percentile(delays, 99)),
        max: round(delays[delays.length - 1]),
      },
      // Per event: when its first and its last subscriber had it (the fan-out is one serial loop).
      first_subscriber_p50_ms: round(
        percentile(
          [...firstAndLast.values()].map((v) => v[0]).sort((a, b) => a - b),
          50,
        ),
      ),
      last_subscriber_p50_ms: round(
        percentile(
          [...firstAndLast.values()].map((v) => v[1]).sort((a, b) => a - b),
          50,
        ),
      ),
      polling_every_3s_mean_delay_ms: round(POLL_PERIOD_MS / 2 + percentile(rest, 50)),
      rest_round_trip_p50_ms: round(percentile(rest, 50)),
      gateway_rss_mb: {
        without_subscribers: round(rssEmpty),
        with_subscribers: round(rssOpen),
        after_events: round(rssAfter),
        per_subscriber_kb: round(((rssOpen - rssEmpty) * 1024) / SUBSCRIBERS),
      },
      floors: { fanout_n1000_p50_ms: 9.7, fanout_n1000_p99_ms: 22.5, commit_to_client_n1000_p99_ms: 24.2 },
    };
    console.log(JSON.stringify(result));
  } finally {
    await system.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
