import { randomUUID } from 'node:crypto';
import { InboxRepository } from '../src/inbox/repositories/inbox.repository';
import { Housekeeping } from '../src/runtime/housekeeping';
import { captureLogger } from '../../../test/support/capture-logger';
import { openMessagingFixture, type MessagingFixture } from './messaging-fixture';

const DAY_MS = 24 * 3_600_000;

describe('housekeeping: inbox and outbox pruned past the redelivery horizon', () => {
  let fx: MessagingFixture;

  beforeAll(async () => {
    fx = await openMessagingFixture('housekeeping');
  });
  afterAll(async () => {
    await fx.close();
  });

  async function insertInbox(ageMs: number): Promise<string> {
    const id = randomUUID();
    await fx.dataSource.query(
      `INSERT INTO "vsphere"."inbox" ("event_id", "type", "received_at")
       VALUES ($1, 'OrderErred', now() - make_interval(secs => $2::double precision / 1000))`,
      [id, ageMs],
    );
    return id;
  }

  async function insertOutbox(ageMs: number, published: boolean): Promise<string> {
    const id = randomUUID();
    await fx.dataSource.query(
      `INSERT INTO "vsphere"."outbox" ("id", "subject", "type", "correlation_id", "aggregate", "envelope", "created_at", "published_at")
       VALUES ($1, 's', 'OrderErred', 'o', 'o', '{}', now() - make_interval(secs => $2::double precision / 1000),
               CASE WHEN $3 THEN now() - make_interval(secs => $2::double precision / 1000) END)`,
      [id, ageMs, published],
    );
    return id;
  }

  async function exists(table: 'inbox' | 'outbox', id: string): Promise<boolean> {
    const column = table === 'inbox' ? 'event_id' : 'id';
    const rows: unknown[] = await fx.dataSource.query(
      `SELECT 1 FROM "vsphere"."${table}" WHERE "${column}" = $1`,
      [id],
    );
    return rows.length === 1;
  }

  it('deletes only what is older than the history plus a day, and never an unpublished event', async () => {
    const horizonMs = 7 * DAY_MS;
    const oldInbox = await insertInbox(horizonMs + DAY_MS + 60_000);
    const recentInbox = await insertInbox(horizonMs);
    const oldPublished = await insertOutbox(horizonMs + DAY_MS + 60_000, true);
    const oldUnpublished = await insertOutbox(horizonMs + DAY_MS + 60_000, false);
    const recentPublished = await insertOutbox(DAY_MS, true);

    const pruned = await new Housekeeping({
      outbox: fx.outbox,
      inbox: new InboxRepository(fx.dataSource, 'vsphere'),
      logger: captureLogger('test').logger,
      horizonMs,
    }).runOnce();

    expect(pruned).toEqual({ inbox: 1, outbox: 1 });
    expect(await exists('inbox', oldInbox)).toBe(false);
    expect(await exists('inbox', recentInbox)).toBe(true);
    expect(await exists('outbox', oldPublished)).toBe(false);
    expect(await exists('outbox', oldUnpublished)).toBe(true);
    expect(await exists('outbox', recentPublished)).toBe(true);
  });
});
