import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CommandContext } from '../command-context';
import { CliError } from '../cli-error';
import { buildProgram } from '../program';
import { CUSTOMER, PROJECT } from './nouns';
import { endDateBody, getWithQuotas, setEndDate } from './structure';

const PROJECT_UUID = '3f0c2a1e-1111-4222-8333-444455556666';
const RESOURCE_UUID = '0b6f0cbb-2a4c-4f4e-9b8e-6a3f1c2d4e5f';
const QUOTAS = [
  { name: 'vcpu', limit: 16, usage: 14 },
  { name: 'ram', limit: -1, usage: 4096 },
];

interface Seen {
  method: string;
  url: string;
  body: unknown;
}

describe('customer get, project get and marketplace resource set-end-date', () => {
  const seen: Seen[] = [];
  let server: Server;
  let apiUrl: string;
  let printed: string;
  let write: jest.SpyInstance;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const url = req.url ?? '';
    seen.push({ method: req.method ?? '', url, body: text === '' ? undefined : JSON.parse(text) });
    res.writeHead(200, { 'content-type': 'application/json' });
    if (url === `/api/projects/${PROJECT_UUID}/`)
      return void res.end(
        JSON.stringify({ uuid: PROJECT_UUID, name: 'P1', customer_name: 'Org', quotas: QUOTAS }),
      );
    const sent = JSON.parse(text) as { end_date: string | null };
    res.end(JSON.stringify({ uuid: RESOURCE_UUID, name: 'vm', state: 'OK', end_date: sent.end_date }));
  }

  beforeAll(async () => {
    server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    seen.length = 0;
    printed = '';
    write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      printed += String(chunk);
      return true;
    });
  });
  afterEach(() => write.mockRestore());
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('has the commands, with their arguments', () => {
    const program = buildProgram(async () => Promise.resolve());
    const names = (group: string) =>
      program.commands.find((c) => c.name() === group)!.commands.map((c) => c.name());
    expect(names('customer')).toEqual(['list', 'get']);
    expect(names('project')).toEqual(['list', 'get']);
    const resource = program.commands
      .find((c) => c.name() === 'marketplace')!
      .commands.find((c) => c.name() === 'resource')!
      .commands.find((c) => c.name() === 'set-end-date')!;
    expect(resource.registeredArguments.map((a) => a.name())).toEqual([
      'marketplace_resource_uuid',
      'end_date',
    ]);
    expect(CUSTOMER.itemPath).toBe('/api/customers/{uuid}/');
  });

  it('shows a project with its quotas: the answer as it is in json, a row per quota in a table', async () => {
    await getWithQuotas(
      await CommandContext.create({ apiUrl, token: 't', format: 'json' }),
      PROJECT,
      PROJECT_UUID,
    );
    expect(seen).toEqual([{ method: 'GET', url: `/api/projects/${PROJECT_UUID}/`, body: undefined }]);
    expect(JSON.parse(printed)).toMatchObject({ uuid: PROJECT_UUID, quotas: QUOTAS });

    printed = '';
    await getWithQuotas(
      await CommandContext.create({ apiUrl, token: 't', format: 'table' }),
      PROJECT,
      PROJECT_UUID,
    );
    const lines = printed.trim().split('\n');
    expect(lines.some((line) => /│ vcpu\s+│ 16\s+│ 14\s+│/.test(line))).toBe(true);
    expect(lines.some((line) => /│ ram\s+│ -1\s+│ 4096\s+│/.test(line))).toBe(true);
  });

  it("sets an end date, or removes it with 'none', and refuses anything else before sending", async () => {
    const context = await CommandContext.create({ apiUrl, token: 't', format: 'json' });
    await setEndDate(context, RESOURCE_UUID, '2026-12-31T18:00:00Z');
    await setEndDate(context, RESOURCE_UUID, 'none');
    expect(seen).toEqual([
      {
        method: 'POST',
        url: `/api/marketplace-resources/${RESOURCE_UUID}/set_end_date/`,
        body: { end_date: '2026-12-31T18:00:00Z' },
      },
      {
        method: 'POST',
        url: `/api/marketplace-resources/${RESOURCE_UUID}/set_end_date/`,
        body: { end_date: null },
      },
    ]);
    expect(endDateBody('2026-12-31')).toEqual({ end_date: '2026-12-31' });
    expect(() => endDateBody('tomorrow')).toThrow(CliError);
    expect(() => endDateBody('2026-12-31T18:00:00')).toThrow(/^END_DATE: an ISO date/);
    expect(seen).toHaveLength(2);
  });
});
