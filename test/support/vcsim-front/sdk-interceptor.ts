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
import { acquireTicketEnvelope, type ConsoleEndpoint } from './console-endpoint';
import type { ConsoleTicketLedger } from './console-tickets';
import { connectAtPowerOn, disconnectNewNics } from './nic-connection-fixup';
import { isVmTask, readSdkCall, type SdkCall } from './sdk-request';
import {
  acquireTicketRefusal,
  CLONE_TICKET_REFUSED,
  guestOperationRefusal,
  nicAddsConnected,
  reconfigureRefusal,
  taskInProgress,
} from './sdk-rules';
import type { SdkProxy } from './sdk-proxy';
import { queryPerfAsVcenterReadsIt } from './perf-query-rules';
import { isSnapshotTask, planSnapshotTask } from './snapshot-tasks';
import { vmOfSnapshot } from './snapshot-revert-fixup';
import { answerSoapFault, type FrontFault } from './soap-faults';
import { TASK_SERIALISED_GUEST_OPERATIONS } from './vm-precondition-rules';
import { vmTaskPrecondition } from './vm-preconditions';
import { readVmRuleState } from './vm-rule-state';
import { RetrievePages } from './retrieve-pages';
import { UpdateWaits } from './update-waits';
import { VmTaskLedger } from './vm-task-ledger';

/** What the `/sdk` interception needs of the front. */
export interface SdkInterceptorDeps {
  readonly proxy: SdkProxy;
  /** The front's own SOAP session to vcsim (reads the VM state the rules judge on). */
  soap(): Promise<VimConnection>;
  /** Test control: how long each VM task's answer is held (0 = at once). */
  vmTaskAnswerDelayMs(): number;
  /** The console tickets the front issues in vCenter's place, and where they are served. */
  readonly consoleTickets: ConsoleTicketLedger;
  consoleEndpoint(): ConsoleEndpoint;
}

async function readAll(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * `/sdk` with vCenter 8's refusals: the call is read from the (small) POST body; a VM task while
 * another is in flight on that VM, a suspend or reset of a VM that is not powered on, an adapter
 * beyond the tenth, a hot change vCenter does not allow on a running VM, a guest
 * shutdown or reboot without Tools (or not powered on) are answered with vCenter's fault; an
 * adapter vcsim connects on a running VM is disconnected as vCenter leaves it, and adapters set to
 * connect at power-on are connected when the VM is powered on from off. `AcquireTicket`
 * (`webmks`), which vcsim lacks, is answered as vCenter 8 does, and a console ticket presented to
 * `CloneSession` is refused as vCenter refuses it. WaitForUpdatesEx keeps vCenter's versions,
 * `maxObjectUpdates` and session end (update-waits.ts); RetrievePropertiesEx pages by `maxObjects`
 * with ContinueRetrievePropertiesEx (retrieve-pages.ts). Everything else goes to vcsim unchanged.
 * See README.md.
 */
export class SdkInterceptor {
  private readonly ledger = new VmTaskLedger();
  /** WaitForUpdatesEx as vCenter 8 answers it (versions, truncation, a session's end). */
  readonly updateWaits: UpdateWaits;
  /** RetrievePropertiesEx paged by `maxObjects`, as vCenter pages it (retrieve-pages.ts). */
  private readonly retrievePages: RetrievePages;
  /** PerformanceManager.QueryPerf calls answered (test control: `queryPerfCalls()`). */
  queryPerfCalls = 0;

  constructor(private readonly deps: SdkInterceptorDeps) {
    this.updateWaits = new UpdateWaits(deps.proxy, deps.soap);
    this.retrievePages = new RetrievePages(deps.proxy);
  }

  /** Whether a task of VM `vm` (moref value) is done at vcsim and its answer held by the front. */
  vmTaskHeld(vm: string): boolean {
    return this.ledger.inFlight(vm)?.task !== undefined;
  }

  vmTaskInFlight(vm: string): boolean {
    return this.ledger.inFlight(vm) !== undefined;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return this.deps.proxy.forward(req, res);
    try {
      const body = await readAll(req);
      const call = readSdkCall(body.toString('utf8'));
      if (call?.self?.type === 'SessionManager' && call.method === 'CloneSession')
        return await this.cloneSession(req, res, body, call);
      if (call?.self?.type === 'PropertyCollector' && call.method === 'WaitForUpdatesEx')
        return await this.updateWaits.handle(req, res, body, call);
      if (call?.self?.type === 'PropertyCollector' && call.method === 'RetrievePropertiesEx')
        return await this.retrievePages.retrieve(req, res, body, call);
      if (call?.self?.type === 'PropertyCollector' && call.method === 'ContinueRetrievePropertiesEx')
        return this.retrievePages.continue(req, res, call);
      if (call?.self?.type === 'PropertyCollector' && call.method === 'CancelRetrievePropertiesEx')
        return this.retrievePages.cancel(req, res, call);
      if (call?.self?.type === 'PerformanceManager' && call.method === 'QueryPerf')
        return await this.queryPerf(req, res, call, call.self);
      if (call !== undefined && isSnapshotTask(call)) {
        // A snapshot's task is its VM's: one at a time with the VM's others (snapshot-tasks.ts).
        const vm = await vmOfSnapshot(await this.deps.soap(), call.self as MoRef);
        return await (vm === undefined ? this.pass(req, res, body) : this.vmTask(req, res, body, call, vm));
      }
      if (call?.self?.type !== 'VirtualMachine') return await this.pass(req, res, body);
      if (call.method === 'AcquireTicket' && call.args.ticketType === 'webmks')
        return await this.acquireTicket(req, res, body, call.self);
      if (isVmTask(call)) return await this.vmTask(req, res, body, call, call.self);
      if (call.method === 'ShutdownGuest' || call.method === 'RebootGuest')
        return await this.guestOperation(req, res, body, call.method, call.self);
      return await this.pass(req, res, body);
    } catch (err) {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`vcsim front: ${String(err)}`);
      } else {
        res.destroy();
      }
    }
  }

  /** QueryPerf with its specs as vCenter 8 reads them (perf-query-rules.ts), then vcsim's answer. */
  private async queryPerf(
    req: IncomingMessage,
    res: ServerResponse,
    call: SdkCall,
    self: MoRef,
  ): Promise<void> {
    this.queryPerfCalls++;
    const body = Buffer.from(
      buildEnvelope('QueryPerf', self, {
        querySpec: queryPerfAsVcenterReadsIt(call.args, new Date()) as never,
      }),
    );
    const headers = { ...req.headers, 'content-length': String(body.length) };
    const rewritten = { method: req.method, url: req.url, headers } as unknown as IncomingMessage;
    return this.pass(rewritten, res, body);
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

  /**
   * A console ticket is never a session: CloneSession with one is InvalidLogin, answered here so
   * the refusal does not rest on vcsim's own ticket store. Any other ticket (a real clone ticket
   * from AcquireCloneTicket) goes to vcsim, which clones the session as vCenter does.
   */
  private async cloneSession(req: IncomingMessage, res: ServerResponse, body: Buffer, call: SdkCall) {
    const ticket = call.args.cloneTicket;
    if (typeof ticket === 'string' && this.deps.consoleTickets.isConsoleTicket(ticket))
      return answerSoapFault(res, CLONE_TICKET_REFUSED);
    return this.pass(req, res, body);
  }

  /**
   * AcquireTicket("webmks") as vCenter 8 answers it, for a caller with a valid session: a new
   * single-use ticket for this VM (served at the front's `/ticket/`), InvalidState when the VM is
   * not powered on. A VM vcsim does not know, or no session, is vcsim's to answer.
   */
  private async acquireTicket(req: IncomingMessage, res: ServerResponse, body: Buffer, vm: MoRef) {
    const state = await this.ruleState(vm);
    if (state === undefined || !(await this.callerAuthenticated(req, vm))) return this.pass(req, res, body);
    const fault = acquireTicketRefusal(state);
    if (fault !== undefined) return answerSoapFault(res, fault);
    const soap = await this.deps.soap();
    const cfgFile = asString(
      await retrieveProperty(soap.caller, soap.content.propertyCollector, vm, 'config.files.vmPathName'),
    );
    const answer = acquireTicketEnvelope({
      ticket: this.deps.consoleTickets.issue(vm.value),
      cfgFile: cfgFile ?? '',
      endpoint: this.deps.consoleEndpoint(),
    });
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(answer);
  }

  private async guestOperation(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    method: string,
    vm: MoRef,
  ) {
    const state = await this.ruleState(vm);
    let fault = state === undefined ? undefined : guestOperationRefusal(state);
    const running = TASK_SERIALISED_GUEST_OPERATIONS.has(method) ? this.ledger.inFlight(vm.value) : undefined;
    if (fault === undefined && state !== undefined && running !== undefined)
      fault = taskInProgress(running.task);
    if (fault === undefined) return this.pass(req, res, body);
    return this.refuse(req, res, body, vm, fault);
  }

  private async vmTask(req: IncomingMessage, res: ServerResponse, body: Buffer, call: SdkCall, vm: MoRef) {
    const running = this.ledger.inFlight(vm.value);
    if (running !== undefined) return this.refuse(req, res, body, vm, taskInProgress(running.task));
    const entry = this.ledger.begin(vm.value);
    try {
      const unmet = await vmTaskPrecondition(await this.deps.soap(), call, vm);
      if (unmet !== undefined) return await this.refuse(req, res, body, vm, unmet);
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
      const snapshotPlan = await planSnapshotTask(await this.deps.soap(), call, vm);
      if (snapshotPlan.fault !== undefined) return await this.refuse(req, res, body, vm, snapshotPlan.fault);
      const fromOff =
        call.method === 'PowerOnVM_Task' && (await this.ruleState(vm))?.powerState === 'poweredOff';
      const reply = await this.deps.proxy.send(req, body);
      const answer = await readAll(reply);
      const task = reply.statusCode === 200 ? this.taskOf(call.method, answer) : undefined;
      entry.task = task;
      if (fixNics !== undefined && task !== undefined && (await this.succeeded(task)))
        await disconnectNewNics(await this.deps.soap(), vm, fixNics.before, fixNics.wanted);
      if (fromOff && task !== undefined && (await this.succeeded(task)))
        await connectAtPowerOn(await this.deps.soap(), vm);
      if (snapshotPlan.afterSuccess !== undefined && task !== undefined && (await this.succeeded(task)))
        await snapshotPlan.afterSuccess();
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
