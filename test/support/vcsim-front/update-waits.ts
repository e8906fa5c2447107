import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import {
  asNumber,
  asObject,
  asString,
  buildEnvelope,
  retrieveProperty,
  terminateSession,
  toUserSessions,
  type MoRef,
  type VimConnection,
} from '@app/vim25';
import { judgeVersion, takeAnswer, type CollectorVersions } from './collector-versions';
import type { SdkCall } from './sdk-request';
import type { SdkProxy } from './sdk-proxy';
import { answerSoapFault, type FrontFault } from './soap-faults';
import { readHeldUpdates, updateSetEnvelope, type HeldUpdate } from './update-sets';

/** "InvalidCollectorVersion is thrown when a collector version is out of date or invalid." */
export const INVALID_COLLECTOR_VERSION: FrontFault = {
  type: 'InvalidCollectorVersion',
  message: 'The collector version is out of date or invalid.',
};

/** NotAuthenticated as vcsim words it for a call without a valid session (recorded). */
function notAuthenticated(collector: MoRef): FrontFault {
  return { type: 'NotAuthenticated', message: '', fields: { object: collector, privilegeId: 'System.View' } };
}

/** The managed object id an update's `<obj>` names. */
function objectOf(update: HeldUpdate): string {
  return /<obj\b[^>]*>([^<]*)<\/obj>/.exec(update.objectSet)?.[1] ?? '';
}

async function readAll(stream: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** One answer of vcsim to a held wait that brought updates: when it came, the objects it named. */
export interface VcsimUpdateAnswer {
  /** performance.now() of this process when vcsim's answer had arrived whole. */
  readonly at: number;
  /** The managed object ids its updates name, in its order (`vm-42`, `task-7`, ...). */
  readonly objects: readonly string[];
}

/** The answers kept (the latest): a bench's burst fits, a long test run stays bounded. */
const ANSWERS_KEPT = 1_000;

/** A wait held at vcsim for a client: what a session's end answers at once. */
interface HeldWait {
  readonly res: ServerResponse;
  readonly abort: AbortController;
  readonly collector: MoRef;
}

/**
 * PropertyCollector.WaitForUpdatesEx as vCenter 8 answers it, where vcsim is lenient (see
 * README.md): vcsim answers every wait with the version `-` and takes any version back, ignores
 * `maxObjectUpdates`, and holds a wait to its end when the session ends meanwhile. The front gives
 * each collector (of each session) versions of its own, answers a version it did not give last
 * with InvalidCollectorVersion, hands out at most `maxObjectUpdates` updates per answer (the rest
 * `truncated`, for the next wait), and answers the waits held for a session it ends with
 * NotAuthenticated at once.
 */
export class UpdateWaits {
  private readonly collectors = new Map<string, CollectorVersions>();
  private readonly held = new Set<HeldWait>();
  private readonly answers: VcsimUpdateAnswer[] = [];

  constructor(
    private readonly proxy: SdkProxy,
    private readonly soap: () => Promise<VimConnection>,
  ) {}

  /** vcsim's answers with updates since `since` (performance.now()), oldest first. */
  answersSince(since: number): VcsimUpdateAnswer[] {
    return this.answers.filter((a) => a.at >= since);
  }

  /** How many waits are held at vcsim now. */
  get heldCount(): number {
    return this.held.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse, body: Buffer, call: SdkCall): Promise<void> {
    const collector = call.self!;
    const key = `${req.headers.cookie ?? ''}|${collector.value}`;
    const version = asString(call.args.version) ?? '';
    const max = asNumber(asObject(call.args.options)?.maxObjectUpdates);
    let state = this.collectors.get(key);
    const judged = judgeVersion(state, version);
    if (judged === 'invalid') {
      // A caller without a session, or a collector vcsim does not know: vcsim's own fault first.
      if (!(await this.callersCollector(req, collector))) return this.forward(req, res, body);
      return answerSoapFault(res, INVALID_COLLECTOR_VERSION);
    }
    if (judged === 'initial' || state === undefined) {
      state = { serial: 0, held: [] };
      this.collectors.set(key, state);
    } else if (state.held.length > 0) {
      return this.answer(res, state, max);
    }
    // vcsim waits only for a non-empty version (its own is `-`); the initial one goes as it is.
    const sent =
      judged === 'initial'
        ? body
        : Buffer.from(body.toString('utf8').replace(/<version>[^<]*<\/version>/, '<version>-</version>'));
    const wait: HeldWait = { res, abort: new AbortController(), collector };
    let gone = false;
    res.once('close', () => {
      if (!res.writableEnded) gone = true;
    });
    this.held.add(wait);
    try {
      const reply = await this.proxy.send(req, sent, wait.abort.signal);
      const answer = await readAll(reply);
      const updates = reply.statusCode === 200 ? readHeldUpdates(answer) : undefined;
      if (updates === undefined) {
        // A fault, or the wait ended with no change (the client keeps its version).
        res.writeHead(reply.statusCode ?? 502, { 'content-type': 'text/xml; charset=utf-8' }).end(answer);
        return;
      }
      this.answers.push({ at: performance.now(), objects: updates.map(objectOf) });
      if (this.answers.length > ANSWERS_KEPT) this.answers.splice(0, this.answers.length - ANSWERS_KEPT);
      state.held.push(...updates);
      // A client that gave up on the wait still has its version: the updates wait for its next one.
      if (gone) return;
      this.answer(res, state, max);
    } catch (err) {
      if (!wait.abort.signal.aborted) throw err;
    } finally {
      this.held.delete(wait);
    }
  }

  /**
   * Ends every session but the front's own at vcsim (TerminateSession), as a session timeout
   * would, and answers each wait held for them with NotAuthenticated at once; their collectors and
   * filters die with them (vcsim's). Returns how many waits were answered.
   */
  async expireSessions(): Promise<number> {
    const soap = await this.soap();
    const manager = soap.content.sessionManager;
    const own = soap.session.userSession?.key;
    const sessions = toUserSessions(
      await retrieveProperty(soap.caller, soap.content.propertyCollector, manager, 'sessionList'),
    );
    const others = sessions.map((s) => s.key).filter((k) => k !== own);
    if (others.length > 0) await terminateSession(soap.caller, manager, others);
    const waits = [...this.held];
    for (const wait of waits) {
      this.held.delete(wait);
      wait.abort.abort();
      if (!wait.res.headersSent) answerSoapFault(wait.res, notAuthenticated(wait.collector));
    }
    this.collectors.clear();
    return waits.length;
  }

  /**
   * Test control: every version given so far is out of date (as after vCenter dropped a
   * collector's change history): the next wait from one is InvalidCollectorVersion.
   */
  forgetVersions(): void {
    this.collectors.clear();
  }

  private answer(res: ServerResponse, state: CollectorVersions, max: number | undefined): void {
    const next = takeAnswer(state, max);
    res
      .writeHead(200, { 'content-type': 'text/xml; charset=utf-8' })
      .end(updateSetEnvelope(next.version, next.truncated, next.updates));
  }

  private forward(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    return this.proxy.send(req, body).then(async (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.rawHeaders).end(await readAll(reply));
    });
  }

  /**
   * Whether the caller's session is valid and holds `collector` (its `filter` property reads with
   * the caller's cookie): vCenter checks both before the version.
   */
  private async callersCollector(req: IncomingMessage, collector: MoRef): Promise<boolean> {
    const cookie = req.headers.cookie;
    if (cookie === undefined) return false;
    const probe = buildEnvelope('RetrievePropertiesEx', (await this.soap()).content.propertyCollector, {
      specSet: {
        propSet: { type: collector.type, pathSet: 'filter' },
        objectSet: { obj: collector, skip: false },
      },
      options: {},
    });
    const headers = { cookie, 'content-type': 'text/xml; charset=utf-8' };
    const probeReq = { method: 'POST', url: req.url, headers } as unknown as IncomingMessage;
    const text = await readAll(await this.proxy.send(probeReq, Buffer.from(probe)));
    return !/type="(NotAuthenticated|ManagedObjectNotFound)"/.test(text);
  }
}
