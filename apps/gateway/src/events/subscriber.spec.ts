import { EventEmitter } from 'node:events';
import type { HttpResponse } from '../rest/http-types';
import { Links } from '../rest/links';
import type { PublicFeedEvent } from './feed-event';
import { Subscriber, type EndReason } from './subscriber';
import { SubscriberAccess } from './subscriber-access';

const PROJECT = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

/** The part of a response a subscriber writes to: what was written, and an adjustable backlog. */
class Sink extends EventEmitter {
  readonly chunks: string[] = [];
  writableLength = 0;
  socket = { destroy: () => undefined };
  ended = false;
  /** The stream's head went out (`openStream`). */
  headersSent = true;
  write(chunk: Buffer | string): boolean {
    this.chunks.push(chunk.toString());
    return true;
  }
  end(): void {
    this.ended = true;
  }
  ids(): number[] {
    return this.chunks.flatMap((chunk) => /^id: (\d+)/.exec(chunk)?.[1] ?? []).map(Number);
  }
}

function event(seq: number, project = PROJECT, size = 10): PublicFeedEvent {
  return {
    kind: 'public',
    seq,
    type: 'OrderStateChanged',
    terminalOrder: false,
    scope: {
      projectUuid: project,
      offeringUuid: OTHER,
      customerUuid: OTHER,
      providerUuid: OTHER,
      public: false,
    },
    frame: () => Buffer.from(`id: ${seq}\nevent: OrderStateChanged\ndata: "${'x'.repeat(size)}"\n\n`),
  };
}

const member = (projects: string[]) =>
  SubscriberAccess.from({
    user_uuid: '33333333-3333-4333-8333-333333333333',
    is_staff: false,
    project_grants: projects.map((project_uuid) => ({
      project_uuid,
      customer_uuid: OTHER,
      roles: ['PROJECT.MEMBER'],
    })),
    owned_customer_uuids: [],
  });

function subscriber(sink: Sink, limit = 10_000, resumeFrom = 0) {
  const ended: EndReason[] = [];
  const created = new Subscriber({
    response: sink as unknown as HttpResponse,
    filter: {},
    access: member([PROJECT]),
    authorization: 'Token t',
    links: new Links('http://gw'),
    queueLimitBytes: limit,
    resumeFrom,
    onSent: () => undefined,
    onEnd: (_subscriber, reason) => ended.push(reason),
  });
  return { created, ended };
}

describe('Subscriber: one SSE client', () => {
  it('joins a replay to the live events it buffered: each sequence once, in order', () => {
    const sink = new Sink();
    const { created } = subscriber(sink);
    created.offer(event(4));
    created.offer(event(5));
    for (const seq of [2, 3, 4]) created.deliver(event(seq)); // the replay overlaps the live buffer
    created.goLive();
    created.offer(event(6));
    expect(sink.ids()).toEqual([2, 3, 4, 5, 6]);
  });

  it('holds events while its access is resolved again, and checks them against the new access', () => {
    const sink = new Sink();
    const { created } = subscriber(sink);
    created.goLive();
    const generation = created.hold();
    created.offer(event(1));
    created.offer(event(2, OTHER));
    expect(sink.ids()).toEqual([]);
    created.resolved(generation, member([OTHER]));
    expect(sink.ids()).toEqual([2]);
  });

  it('lets a replay wait until a pending re-resolution of access is done', async () => {
    const sink = new Sink();
    const { created } = subscriber(sink);
    await created.settled(); // nothing pending: at once
    const generation = created.hold();
    let settled = false;
    const waiting = created.settled().then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    created.resolved(generation, member([]));
    await waiting;
    expect(settled).toBe(true);
    created.deliver(event(1));
    expect(sink.ids()).toEqual([]); // checked against the access resolved after the change
  });

  it('ignores a resolution older than the latest one asked for', () => {
    const sink = new Sink();
    const { created } = subscriber(sink);
    created.goLive();
    const older = created.hold();
    const newer = created.hold();
    created.offer(event(1));
    created.resolved(older, member([PROJECT]));
    expect(sink.ids()).toEqual([]);
    created.resolved(newer, member([]));
    expect(sink.ids()).toEqual([]);
  });

  it('drops a client whose backlog passes the limit, with a final overflow event naming its last id', () => {
    const sink = new Sink();
    const { created, ended } = subscriber(sink, 5_000);
    created.goLive();
    created.offer(event(1));
    sink.writableLength = 6_000; // the client stopped reading
    created.offer(event(2));
    created.offer(event(3));
    expect(ended).toEqual(['overflow']);
    expect(sink.ended).toBe(true);
    expect(sink.ids()).toEqual([1, 2]);
    expect(sink.chunks.at(-1)).toBe(
      'event: overflow\ndata: {"detail":"The client fell behind the event stream; reconnect with Last-Event-ID to resume.","last_event_id":"2"}\n\n',
    );
  });

  it('counts what waits to join against the same limit; with nothing sent, it names the id it resumed from', () => {
    const sink = new Sink();
    const { created, ended } = subscriber(sink, 5_000, 41);
    for (let seq = 42; seq <= 52; seq++) created.offer(event(seq, PROJECT, 1_000));
    expect(ended).toEqual(['overflow']);
    expect(sink.chunks.at(-1)).toContain('"last_event_id":"41"');
  });

  it('sends no heartbeat before the stream is open, so a refusal can still have its own status', () => {
    const sink = new Sink();
    sink.headersSent = false;
    const { created } = subscriber(sink);
    created.heartbeat();
    expect(sink.chunks).toEqual([]);
    sink.headersSent = true;
    created.heartbeat();
    expect(sink.chunks).toEqual([':\n\n']);
  });
});
