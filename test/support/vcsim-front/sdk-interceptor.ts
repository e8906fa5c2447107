import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  asMoRef,
  asObject,
  asString,
  buildEnvelope,
  readResponse,
  readVmDevices,
  retrieveProperty,
  VimFault,
  type MoRef,
  type VimConnection,
  type VmDevice,
} from '@app/vim25';
import { disconnectNewNics } from './nic-connection-fixup';
import { isVmTask, readSdkCall, type SdkCall } from './sdk-request';
import { guestOperationRefusal, nicAddsConnected, reconfigureRefusal, taskInProgress } from './sdk-rules';
import type { SdkProxy } from './sdk-proxy';
import { answerSoapFault, type FrontFault } from './soap-faults';
import { readVmRuleState } from './vm-rule-state';
import { VmTaskLedger } from './vm-task-ledger';

/** What the `/sdk` interception needs of the front. */
export interface SdkInterceptorDeps {
  readonly proxy: SdkProxy;
  /** The front's own SOAP session to vcsim (reads the VM state the rules judge on). */
  soap(): Promise<VimConnection>;
  /** Test control: how long each VM task's answer is held (0 = at once). */
  vmTaskAnswerDelayMs(): number;
}

async function readAll(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * `/sdk` with vCenter 8's refusals: the call is read from the (small) POST body; a VM task while
 * another is in flight on that VM, a hot change vCenter does not allow on a running VM, a guest
 * shutdown or reboot without Tools (or not powered on) are answered with vCenter's fault; an
 * adapter vcsim connects on a running VM is disconnected as vCenter leaves it. Everything else
 * goes to vcsim unchanged. See README.md.
 */
export class SdkInterceptor {
  private readonly ledger = new VmTaskLedger();

  constructor(private readonly deps: SdkInterceptorDeps) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return this.deps.proxy.forward(req, res);
    try {
      const body = await readAll(req);
      const call = readSdkCall(body.toString('utf8'));
      if (call?.self?.type !== 'VirtualMachine') return await this.pass(req, res, body);
      if (isVmTask(call)) return await this.vmTask(req, res, body, call, call.self);
      if (call.method === 'ShutdownGuest' || call.method === 'RebootGuest')
        return await this.guestOperation(req, res, body, call.self);
      return await this.pass(req, res, body);
    } catch (err) {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`vcsim front: ${String(err)}`);
      } else {
        res.destroy();
      }
    }
  }

  /** Forwards the request unchanged and streams vcsim's answer back. */
  private async pass(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const reply = await this.deps.proxy.send(req, body);
    res.writeHead(reply.statusCode ?? 502, reply.rawHeaders);
    for await (const chunk of reply) res.write(chunk as Buffer);
    res.end();
  }

  /**
   * Answers `fault`, unless the caller's own session is not valid: then vcsim answers the call
   * (NotAuthenticated), as vCenter checks the session before anything else.
   */
  private async refuse(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    vm: MoRef,
    fault: FrontFault,
  ) {
    if (await this.callerAuthenticated(req, vm)) answerSoapFault(res, fault);
    else await this.pass(req, res, body);
  }

  private async callerAuthenticated(req: IncomingMessage, vm: MoRef): Promise<boolean> {
    const cookie = req.headers.cookie;
    if (cookie === undefined) return false;
    const soap = await this.deps.soap();
    const probe = buildEnvelope('RetrievePropertiesEx', soap.content.propertyCollector, {
      specSet: { propSet: { type: vm.type, pathSet: 'name' }, objectSet: { obj: vm, skip: false } },
      options: {},
    });
    const headers = { cookie, 'content-type': 'text/xml; charset=utf-8' };
    const probeReq = { method: 'POST', url: req.url, headers } as unknown as IncomingMessage;
    const text = (await readAll(await this.deps.proxy.send(probeReq, Buffer.from(probe)))).toString('utf8');
    // vcsim answers an unauthenticated RetrievePropertiesEx with a NotAuthenticated missingSet
    // (or fault); anything else means the session is valid.
    return !/type="NotAuthenticated"/.test(text);
  }

  private async guestOperation(req: IncomingMessage, res: ServerResponse, body: Buffer, vm: MoRef) {
    const state = await this.ruleState(vm);
    const fault = state === undefined ? undefined : guestOperationRefusal(state);
    if (fault === undefined) return this.pass(req, res, body);
    return this.refuse(req, res, body, vm, fault);
  }

  private async vmTask(req: IncomingMessage, res: ServerResponse, body: Buffer, call: SdkCall, vm: MoRef) {
    const running = this.ledger.inFlight(vm.value);
    if (running !== undefined) return this.refuse(req, res, body, vm, taskInProgress(running.task));
    const entry = this.ledger.begin(vm.value);
    try {
      let fixNics: { before: VmDevice[]; wanted: boolean[] } | undefined;
      const spec = asObject(call.args.spec);
      if (call.method === 'ReconfigVM_Task' && spec !== undefined) {
        const state = await this.ruleState(vm);
        const fault = state === undefined ? undefined : reconfigureRefusal(spec, state);
        if (fault !== undefined) return await this.refuse(req, res, body, vm, fault);
        const wanted = nicAddsConnected(spec);
        if (state?.powerState === 'poweredOn' && wanted.includes(false))
          fixNics = { before: await readVmDevices(await this.deps.soap(), vm), wanted };
      }
      const reply = await this.deps.proxy.send(req, body);
      const answer = await readAll(reply);
      const task = reply.statusCode === 200 ? this.taskOf(call.method, answer) : undefined;
      entry.task = task;
      if (fixNics !== undefined && task !== undefined && (await this.succeeded(task)))
        await disconnectNewNics(await this.deps.soap(), vm, fixNics.before, fixNics.wanted);
      const delay = this.deps.vmTaskAnswerDelayMs();
      if (delay > 0) await sleep(delay);
      res.writeHead(reply.statusCode ?? 502, reply.rawHeaders).end(answer);
    } finally {
      this.ledger.end(vm.value, entry);
    }
  }

  /** The VM's state for the rules; undefined when vcsim does not know it (vcsim then answers). */
  private async ruleState(vm: MoRef) {
    try {
      return await readVmRuleState(await this.deps.soap(), vm);
    } catch (err) {
      if (err instanceof VimFault && err.faultType === 'ManagedObjectNotFound') return undefined;
      throw err;
    }
  }

  private taskOf(method: string, answer: Buffer): MoRef | undefined {
    try {
      return asMoRef(readResponse(method, { status: 200, body: answer.toString('utf8') }));
    } catch {
      return undefined;
    }
  }

  private async succeeded(task: MoRef): Promise<boolean> {
    const soap = await this.deps.soap();
    const state = await retrieveProperty(soap.caller, soap.content.propertyCollector, task, 'info.state');
    return asString(state) === 'success';
  }
}
