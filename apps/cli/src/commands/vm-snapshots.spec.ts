import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildProgram } from '../program';
import { CommandContext } from '../command-context';
import { CliError } from '../cli-error';
import { createSnapshot, deleteSnapshot, revertSnapshot, snapshotCreateBody } from './vm-snapshots';

const VM = '502e74b6-aaaa-4bbb-8ccc-000000000001';
const SNAPSHOT = '9e2a1c33-1111-4222-8333-444455556666';
const OPERATION = {
  uuid: '7d1f7a52-8e0c-4d55-a0a3-3b1c2f6e9a10',
  operation: 'create_snapshot',
  state: 'pending',
};

describe('vmware snapshot parsing', () => {
  it('has list, get, create, revert and delete', () => {
    const snapshot = buildProgram(async () => Promise.resolve())
      .commands.find((c) => c.name() === 'vmware')!
      .commands.find((c) => c.name() === 'snapshot')!;
    expect(snapshot.commands.map((c) => c.name())).toEqual(['list', 'get', 'create', 'revert', 'delete']);
  });

  it('builds the create body from the flags, checked against the contract, naming the flag', () => {
    expect(snapshotCreateBody({ name: 'before upgrade', memory: true })).toEqual({
      name: 'before upgrade',
      memory: true,
    });
    expect(snapshotCreateBody({ name: 'x', description: 'why', quiesce: true })).toEqual({
      name: 'x',
      description: 'why',
      quiesce: true,
    });
    expect(() => snapshotCreateBody({})).toThrow(/^--name: /);
    expect(() => snapshotCreateBody({ name: 'n'.repeat(81) })).toThrow(
      /^--name: Ensure this field has no more than 80/,
    );
  });
});

describe('vmware snapshot requests', () => {
  const seen: { method: string; url: string; body: unknown }[] = [];
  const keys: (string | string[] | undefined)[] = [];
  let failPosts = 0;
  let server: Server;
  let context: CommandContext;
  let write: jest.SpyInstance;
  let printed = '';

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let text = '';
      req.on('data', (c) => (text += String(c)));
      req.on('end', () => {
        seen.push({
          method: req.method ?? '',
          url: req.url ?? '',
          body: text === '' ? undefined : JSON.parse(text),
        });
        if (req.method === 'POST') keys.push(req.headers['idempotency-key']);
        if (req.method === 'POST' && failPosts > 0) {
          failPosts -= 1;
          res.writeHead(503, { 'content-type': 'application/json' }).end('{"detail":"no answer"}');
          return;
        }
        res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify(OPERATION));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    context = await CommandContext.create({ apiUrl, token: 't', format: 'json' });
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

  const flags = { timeout: 5, interval: 1 };

  it('creates on the VM, reverts and deletes on the snapshot, each sent once; prints the operation', async () => {
    await createSnapshot(context, { ...flags, vm: VM, name: 'before', memory: true });
    expect(JSON.parse(printed)).toMatchObject(OPERATION);
    await revertSnapshot(context, SNAPSHOT, flags);
    await deleteSnapshot(context, SNAPSHOT, flags);
    await deleteSnapshot(context, undefined, { ...flags, all: true, vm: VM });
    expect(seen).toEqual([
      {
        method: 'POST',
        url: `/api/vmware-virtual-machine/${VM}/create_snapshot/`,
        body: { name: 'before', memory: true },
      },
      { method: 'POST', url: `/api/vmware-snapshots/${SNAPSHOT}/revert/`, body: {} },
      { method: 'DELETE', url: `/api/vmware-snapshots/${SNAPSHOT}/`, body: undefined },
      { method: 'POST', url: `/api/vmware-virtual-machine/${VM}/remove_all_snapshots/`, body: {} },
    ]);
  });

  it('takes a snapshot under an Idempotency-Key of its own, sent again under it when unanswered', async () => {
    keys.length = 0;
    failPosts = 1;
    await createSnapshot(context, { ...flags, vm: VM, name: 'retried' });
    expect(JSON.parse(printed)).toMatchObject(OPERATION);
    expect(seen.map((s) => s.url)).toEqual([
      `/api/vmware-virtual-machine/${VM}/create_snapshot/`,
      `/api/vmware-virtual-machine/${VM}/create_snapshot/`,
    ]);
    expect(keys[0]).toMatch(/^"[0-9a-f-]{36}"$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('refuses delete without a snapshot, and --all without --vm, before sending anything', async () => {
    await expect(deleteSnapshot(context, undefined, flags)).rejects.toBeInstanceOf(CliError);
    await expect(deleteSnapshot(context, SNAPSHOT, { ...flags, all: true, vm: VM })).rejects.toThrow(
      /--all needs --vm/,
    );
    expect(seen).toEqual([]);
  });
});
