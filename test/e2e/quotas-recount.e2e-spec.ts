import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Json } from '../support/api-session';
import { runSql } from '../support/rest-client';
import { SseClient } from '../support/sse-client';
import { orderVm, type Vm } from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(300_000);

const ROOT = join(__dirname, '..', '..');

interface Figures {
  limits: Record<string, number>;
  backend_gone: boolean;
}
interface Report {
  checked: number;
  changed: { resource_uuid: string; before: Figures; after: Figures }[];
  dry_run: boolean;
}
type WithQuotas = Json & { quotas: { name: string; limit: number; usage: number }[] };

/**
 * `npm run quotas:recount` end to end on vcsim: on a healthy system it changes nothing (no resource
 * row, no event); after the resource's limits were edited by hand, `--dry-run` reports the drift and
 * leaves it, and the recount repairs it: the project's quota usage is right again and the
 * resource's ResourceStateChanged reaches SSE.
 */
describe('quota recount end to end', () => {
  let market: VsphereMarketplace;
  let vm: Vm;
  let events: SseClient;

  beforeAll(async () => {
    market = await VsphereMarketplace.start('quotas-recount');
    vm = await orderVm(market, 'e2e-recount-1', await market.vmPlacement());
    events = await SseClient.open(`${market.api.base}/api/events?type=ResourceStateChanged`, {
      token: market.api.tokens.member,
    });
    expect(events.status).toBe(200);
  });

  afterAll(async () => {
    events?.close();
    await market?.stop();
  });

  async function recount(...args: string[]): Promise<Report> {
    const { stdout } = await promisify(execFile)(
      join(ROOT, 'node_modules', '.bin', 'node'),
      [join(ROOT, 'dist/apps/order-service/apps/order-service/src/quotas-recount.js'), ...args],
      { cwd: ROOT, env: { ...process.env, ...market.env } },
    );
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0]) as Report;
  }

  /** Every resource row and the order service's outbox, as the database holds them. */
  const rows = async () => ({
    resources: await runSql(market.db.url, `SELECT * FROM "marketplace"."resources" ORDER BY "uuid"`),
    outbox: await runSql<{ n: string }>(market.db.url, `SELECT count(*) AS "n" FROM "marketplace"."outbox"`),
  });
  const vcpuUsage = async () =>
    (await market.api.ok<WithQuotas>('member', 'GET', `/api/projects/${market.project.uuid}/`)).quotas.find(
      (q) => q.name === 'vcpu',
    )?.usage;

  it('changes nothing on a healthy system', async () => {
    const before = await rows();
    const report = await recount();
    expect(report).toEqual({ checked: 1, changed: [], dry_run: false });
    expect(await rows()).toEqual(before);
    expect(await vcpuUsage()).toBe(2);
  });

  it('reports a hand-edited resource on --dry-run and leaves it, then repairs it', async () => {
    const resourceUuid = vm.marketplace_resource_uuid;
    await runSql(
      market.db.url,
      `UPDATE "marketplace"."resources" SET "limits" = "limits" || '{"cpu": 7}'::jsonb, "backend_gone" = true
       WHERE "uuid" = $1`,
      [resourceUuid],
    );
    // Gone, the VM counts for nothing: usage lost its 2 vCPU.
    expect(await vcpuUsage()).toBe(0);
    const tampered = await rows();

    const dryRun = await recount('--dry-run');
    expect(dryRun.dry_run).toBe(true);
    expect(dryRun.checked).toBe(1);
    expect(dryRun.changed).toHaveLength(1);
    const [drift] = dryRun.changed;
    expect(drift.resource_uuid).toBe(resourceUuid);
    expect(drift.before.limits.cpu).toBe(7);
    expect(drift.before.backend_gone).toBe(true);
    expect(drift.after).toEqual({ limits: { ...drift.before.limits, cpu: 2 }, backend_gone: false });
    expect(await rows()).toEqual(tampered);
    expect(await vcpuUsage()).toBe(0);

    const repairedEvents = () =>
      events
        .data<{ uuid: string; limits: Record<string, number> }>('ResourceStateChanged')
        .filter((r) => r.uuid === resourceUuid && r.limits.cpu === 2).length;
    const seen = repairedEvents();
    const repaired = await recount();
    expect(repaired).toEqual({ ...dryRun, dry_run: false });
    expect(await vcpuUsage()).toBe(2);
    const limits: { limits: Record<string, number>; backend_gone: boolean }[] = await runSql(
      market.db.url,
      `SELECT "limits", "backend_gone" FROM "marketplace"."resources" WHERE "uuid" = $1`,
      [resourceUuid],
    );
    expect(limits).toEqual([{ limits: drift.after.limits, backend_gone: false }]);
    // Its ResourceStateChanged was written with the repair (one outbox row), and reaches SSE.
    expect(Number((await rows()).outbox[0].n)).toBe(Number(tampered.outbox[0].n) + 1);
    await events.waitFor(
      () => repairedEvents() > seen,
      30_000,
      "the repaired resource's ResourceStateChanged",
    );

    // Repaired, it is healthy: a second recount finds nothing.
    expect(await recount()).toEqual({ checked: 1, changed: [], dry_run: false });
  });
});
