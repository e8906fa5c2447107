import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VM_ACTIONS } from '@app/contracts';
import { buildProgram } from '../program';
import { CommandContext } from '../command-context';
import { CliError } from '../cli-error';
import { EXIT } from '../exit-codes';
import {
  createDisk,
  createPort,
  deleteDevice,
  diskSizeBody,
  portCreateBody,
  updateVm,
  vmAction,
  vmActionOf,
  vmUpdateBody,
} from './vm-day2';
import { waitFor } from './browse';
import { VM as VM_NOUN } from './nouns';
import { isOperationOf } from './vm-operation';

const VM = '502e74b6-aaaa-4bbb-8ccc-000000000001';
const RESOURCE = '0b6f0cbb-2a4c-4f4e-9b8e-6a3f1c2d4e5f';
const OPERATION = '7d1f7a52-8e0c-4d55-a0a3-3b1c2f6e9a10';
const DISK = '9e2a1c33-1111-4222-8333-444455556666';

describe('vmware vm|disk|port day-2 parsing', () => {
  it('has a command for every VM action of the contracts, spelled with dashes', () => {
    const vm = buildProgram(async () => Promise.resolve())
      .commands.find((c) => c.name() === 'vmware')!
      .commands.find((c) => c.name() === 'vm')!;
    const actions = vm.commands
      .map((c) => c.name())
      .filter(
        (name) =>
          !['list', 'get', 'wait', 'provision', 'terminate', 'update', 'console', 'stats'].includes(name),
      );
    expect(actions.map(vmActionOf)).toEqual([...VM_ACTIONS]);
    expect(() => vmActionOf('explode')).toThrow(/not a VM action/);
  });

  it('builds the resize body from the flags given, checked against the contract, naming the flag', () => {
    expect(vmUpdateBody({ cores: 4, coresPerSocket: 2, timeout: 1, interval: 1 })).toEqual({
      cores: 4,
      cores_per_socket: 2,
    });
    expect(() => vmUpdateBody({ timeout: 1, interval: 1 })).toThrow(
      /needs --cores, --cores-per-socket or --ram/,
    );
    expect(() => vmUpdateBody({ coresPerSocket: 0, timeout: 1, interval: 1 })).toThrow(
      /^--cores-per-socket: /,
    );
  });

  it('checks a disk size and a network before sending', () => {
    expect(diskSizeBody(2048, false)).toEqual({ size: 2048 });
    expect(() => diskSizeBody(0, true)).toThrow(/^--size: /);
    expect(portCreateBody(RESOURCE)).toEqual({ network: RESOURCE });
    expect(() => portCreateBody(undefined)).toThrow(CliError);
  });

  it('recognises the operation a request started, or the one making the device it created', () => {
    expect(isOperationOf({ uuid: OPERATION, disk_uuid: null }, { uuid: OPERATION })).toBe(true);
    expect(isOperationOf({ uuid: 'other', disk_uuid: DISK }, { uuid: DISK })).toBe(true);
    expect(isOperationOf({ uuid: 'other', port_uuid: null }, { uuid: DISK })).toBe(false);
  });
});

interface Seen {
  method: string;
  url: string;
  body: unknown;
}

/**
 * A stand-in for the gateway's VM routes: records each request, answers an action with an operation
 * and streams the VM's VmChanged events, as the adapter's side will.
 */
class FakeGateway {
  readonly seen: Seen[] = [];
  /** The Idempotency-Key of each POST, in order. */
  readonly keys: (string | undefined)[] = [];
  /** How many of the next POSTs are answered 503 (as a gateway whose service did not answer). */
  failPosts = 0;
  private server!: Server;
  private streams: ServerResponse[] = [];
  /** What the operation ends as, pushed on the stream once the action arrives. */
  outcome: { state: string; error_message: string } = { state: 'done', error_message: '' };

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Streams a VmChanged carrying `vm` to every open stream. */
  push(id: number, vm: object): void {
    for (const stream of this.streams)
      stream.write(`id: ${id}\nevent: VmChanged\ndata: ${JSON.stringify(vm)}\n\n`);
  }

  async stop(): Promise<void> {
    for (const stream of this.streams) stream.end();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const url = req.url ?? '';
    this.seen.push({ method: req.method ?? '', url, body: text === '' ? undefined : JSON.parse(text) });
    const json = (status: number, body?: unknown) => {
      res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (req.method === 'POST') {
      const key = req.headers['idempotency-key'];
      this.keys.push(Array.isArray(key) ? key.join(',') : key);
      if (this.failPosts > 0) {
        this.failPosts -= 1;
        return json(503, { detail: 'The VMware service did not answer within 5000 ms.' });
      }
    }
    if (url.startsWith('/api/events')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
      this.streams.push(res);
      return;
    }
    if (req.method === 'GET' && url === `/api/vmware-virtual-machine/${VM}/`)
      return json(200, { uuid: VM, marketplace_resource_uuid: RESOURCE, state: 'OK' });
    if (req.method === 'DELETE' && url === `/api/vmware-disks/${DISK}/`) return json(204);
    const operation = {
      uuid: OPERATION,
      operation: 'start',
      state: 'pending',
      vm_uuid: VM,
      error_message: '',
    };
    json(202, operation);
    setTimeout(() => {
      const event = (id: number, op: object) =>
        `id: ${id}\nevent: VmChanged\ndata: ${JSON.stringify({ uuid: VM, state: 'UPDATING', operation: op })}\n\n`;
      for (const stream of this.streams) {
        stream.write(event(1, { ...operation, uuid: 'someone-else', state: 'done' }));
        stream.write(event(2, { ...operation, state: 'running' }));
        stream.write(event(3, { ...operation, ...this.outcome }));
      }
    }, 20);
  }
}

describe('vmware day-2 requests', () => {
  const gateway = new FakeGateway();
  let context: CommandContext;
  let printed: string;
  let write: jest.SpyInstance;

  beforeAll(async () => {
    const apiUrl = await gateway.start();
    // The flags win over any profile file of the machine.
    context = await CommandContext.create({ apiUrl, token: 't', format: 'json' });
  });
  beforeEach(() => {
    gateway.seen.length = 0;
    printed = '';
    write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      printed += String(chunk);
      return true;
    });
  });
  afterEach(() => write.mockRestore());
  afterAll(() => gateway.stop());

  const flags = { timeout: 5, interval: 1 };

  it('posts an action once, without a body of its own, and prints the operation', async () => {
    await vmAction(context, 'shutdown-guest', VM, flags);
    expect(gateway.seen).toEqual([
      { method: 'POST', url: `/api/vmware-virtual-machine/${VM}/shutdown_guest/`, body: {} },
    ]);
    expect(JSON.parse(printed)).toMatchObject({ uuid: OPERATION, state: 'pending' });
  });

  it('resizes with PATCH and adds a disk with its size in MiB', async () => {
    await updateVm(context, VM, { ...flags, ram: 4096 });
    await createDisk(context, { ...flags, vm: VM, size: 1024 });
    expect(gateway.seen).toEqual([
      { method: 'PATCH', url: `/api/vmware-virtual-machine/${VM}/`, body: { ram: 4096 } },
      { method: 'POST', url: `/api/vmware-virtual-machine/${VM}/create_disk/`, body: { size: 1024 } },
    ]);
  });

  it('adds a disk and an adapter each under an Idempotency-Key of its own, sent again under it when unanswered', async () => {
    gateway.keys.length = 0;
    gateway.failPosts = 1;
    await createDisk(context, { ...flags, vm: VM, size: 1024 });
    gateway.failPosts = 1;
    await createPort(context, { ...flags, vm: VM, network: RESOURCE });
    const createDiskPath = `/api/vmware-virtual-machine/${VM}/create_disk/`;
    const createPortPath = `/api/vmware-virtual-machine/${VM}/create_port/`;
    expect(gateway.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      `POST ${createDiskPath}`,
      `POST ${createDiskPath}`,
      `POST ${createPortPath}`,
      `POST ${createPortPath}`,
    ]);
    const [disk, diskRetry, port, portRetry] = gateway.keys;
    expect(disk).toMatch(/^"[0-9a-f-]{36}"$/);
    expect(diskRetry).toBe(disk);
    expect(portRetry).toBe(port);
    expect(port).not.toBe(disk);
  });

  it('deletes a disk vCenter never had at once (204)', async () => {
    await deleteDevice(context, 'disk', DISK, flags);
    expect(gateway.seen).toEqual([{ method: 'DELETE', url: `/api/vmware-disks/${DISK}/`, body: undefined }]);
    expect(JSON.parse(printed)).toEqual({ deleted: true });
  });

  it('with --wait, opens the VM stream before sending and returns when its own operation is done', async () => {
    gateway.outcome = { state: 'done', error_message: '' };
    await vmAction(context, 'start', VM, { ...flags, wait: true });
    expect(gateway.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET /api/vmware-virtual-machine/${VM}/`,
      `GET /api/events?resource_uuid=${RESOURCE}&type=VmChanged`,
      `POST /api/vmware-virtual-machine/${VM}/start/`,
    ]);
    expect(JSON.parse(printed)).toMatchObject({ uuid: VM, operation: { uuid: OPERATION, state: 'done' } });
  });

  it("with --wait, fails with exit 5 and vCenter's message when the operation errs", async () => {
    gateway.outcome = {
      state: 'erred',
      error_message: 'The attempted operation cannot be performed in the current state (Powered on).',
    };
    const attempt = vmAction(context, 'start', VM, { ...flags, wait: true });
    await expect(attempt).rejects.toMatchObject({
      exitCode: EXIT.orderFailed,
      message:
        'start of vm 502e74b6-aaaa-4bbb-8ccc-000000000001 erred: The attempted operation cannot be performed in the current state (Powered on).',
    });
  });

  it("`vmware vm wait` follows the VM's events by its marketplace resource until the condition holds", async () => {
    const waiting = await CommandContext.create({
      apiUrl: context.settings.apiUrl,
      token: 't',
      format: 'json',
      jmespath: "runtime_state=='POWERED_OFF'",
    });
    const done = waitFor(waiting, VM_NOUN, VM, flags);
    while (!gateway.seen.some((r) => r.url.startsWith('/api/events')))
      await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    gateway.push(10, { uuid: 'another-vm', runtime_state: 'POWERED_OFF' });
    gateway.push(11, { uuid: VM, runtime_state: 'POWERED_OFF', state: 'OK' });
    await done;
    expect(gateway.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET /api/vmware-virtual-machine/${VM}/`,
      `GET /api/events?resource_uuid=${RESOURCE}&type=VmChanged`,
      `GET /api/vmware-virtual-machine/${VM}/`,
    ]);
    expect(JSON.parse(printed)).toEqual({ uuid: VM, runtime_state: 'POWERED_OFF', state: 'OK' });
  });
});
