import * as contracts from '../index';
import { VMWARE_VM_TYPE } from '../marketplace/offering-types';
import { topology, type Topology } from '../topology';
import {
  CONSUMER_OWNERS,
  NATS_APPS,
  natsInboxPrefix,
  natsPermissions,
  REQUEST_ROUTES,
  STREAM_PUBLISHERS,
  type NatsApp,
  type NatsPermissions,
} from './nats-permissions';

/** NATS subject matching: `*` is one token, `>` one or more trailing tokens. */
function matches(pattern: string, subject: string): boolean {
  const want = pattern.split('.');
  const have = subject.split('.');
  for (let i = 0; i < want.length; i++) {
    if (want[i] === '>') return have.length > i;
    if (i >= have.length || (want[i] !== '*' && want[i] !== have[i])) return false;
  }
  return want.length === have.length;
}

const mayPublish = (perms: NatsPermissions, subject: string) =>
  perms.publish.allow.some((p) => matches(p, subject)) &&
  !perms.publish.deny.some((p) => matches(p, subject));
const maySubscribe = (perms: NatsPermissions, subject: string) =>
  perms.subscribe.allow.some((p) => matches(p, subject)) &&
  !perms.subscribe.deny.some((p) => matches(p, subject));

/** Every event subject the topology defines; a per-offering-type subject is taken for the vSphere type. */
function eventSubjects(names: Topology): [string, string][] {
  return Object.entries(names.subjects).map(([key, value]) => [
    key,
    typeof value === 'function' ? value(VMWARE_VM_TYPE) : value,
  ]);
}

/** Every request pattern `libs/contracts` exports: the values of `*_PATTERNS` and the `pattern` of operations. */
function requestPatterns(): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(contracts)) {
    if (typeof value !== 'object' || value === null) continue;
    for (const entry of Object.values(value as Record<string, unknown>)) {
      if (name.endsWith('_PATTERNS') && typeof entry === 'string') found.push(entry);
      const pattern = (entry as { pattern?: unknown } | null)?.pattern;
      if (typeof pattern === 'string') found.push(pattern);
    }
  }
  return found;
}

describe('NATS permissions', () => {
  const names = topology('perm-test');
  const perms = natsPermissions(names);
  const apps = (predicate: (app: NatsApp) => boolean) => NATS_APPS.filter(predicate);

  it('finds the request patterns it checks (the walk over the exports sees them)', () => {
    expect(requestPatterns()).toEqual(
      expect.arrayContaining(['marketplace.users.update', 'marketplace.orders.create', 'scheduler.health']),
    );
  });

  it('gives every event subject exactly one publisher: the owner of the one stream that holds it', () => {
    for (const [key, subject] of eventSubjects(names)) {
      const holders = Object.entries(names.streams).filter(([, stream]) =>
        stream.subjects.some((pattern) => matches(pattern, subject)),
      );
      expect({ key, streams: holders.length }).toEqual({ key, streams: 1 });
      const owner = STREAM_PUBLISHERS[holders[0][0] as keyof Topology['streams']];
      expect({ key, publishers: apps((app) => mayPublish(perms[app], subject)) }).toEqual({
        key,
        publishers: [owner],
      });
    }
  });

  it('lets no app publish on a stream it does not own', () => {
    for (const [key, stream] of Object.entries(names.streams)) {
      const probe = stream.subjects[0].replace('>', 'anything.at.all');
      expect({ key, publishers: apps((app) => mayPublish(perms[app], probe)) }).toEqual({
        key,
        publishers: [STREAM_PUBLISHERS[key as keyof Topology['streams']]],
      });
    }
  });

  it('gives every request pattern one responder, its requesters, and nobody else', () => {
    const patterns = requestPatterns();
    for (const pattern of patterns) {
      const route = REQUEST_ROUTES[pattern.split('.')[0]];
      expect({ pattern, routed: route !== undefined }).toEqual({ pattern, routed: true });
      const subject = names.requests.subject(pattern);
      expect({ pattern, responders: apps((app) => maySubscribe(perms[app], subject)) }).toEqual({
        pattern,
        responders: [route.responder],
      });
      expect({ pattern, requesters: apps((app) => mayPublish(perms[app], subject)) }).toEqual({
        pattern,
        requesters: NATS_APPS.filter((app) => route.requesters.includes(app)),
      });
    }
  });

  it('lets only responders answer, and only on reply subjects (nats-server allow_responses)', () => {
    expect(apps((app) => perms[app].allowResponses)).toEqual([
      'order-service',
      'vsphere-adapter',
      'sync-scheduler',
    ]);
  });

  it('delivers each app its replies on an inbox prefix no other app may subscribe to', () => {
    for (const app of NATS_APPS) {
      const reply = `${natsInboxPrefix(names.namespace, app)}.AbC123.7`;
      expect({ app, readers: apps((reader) => maySubscribe(perms[reader], reply)) }).toEqual({
        app,
        readers: [app],
      });
    }
    expect(apps((app) => maySubscribe(perms[app], '_INBOX.AbC123'))).toEqual([]);
  });

  it('lets each durable consumer be created, pulled and acked by its owner only', () => {
    for (const [key, durable] of Object.entries(names.consumers)) {
      const owner = CONSUMER_OWNERS[key as keyof Topology['consumers']];
      const stream = Object.values(names.streams).find((s) => s.name === durable.stream);
      expect({ key, filterInStream: stream?.subjects.some((p) => matches(p, durable.filter)) }).toEqual({
        key,
        filterInStream: true,
      });
      const api = [
        `$JS.API.CONSUMER.CREATE.${durable.stream}.${durable.durable}.${durable.filter}`,
        `$JS.API.CONSUMER.MSG.NEXT.${durable.stream}.${durable.durable}`,
        `$JS.ACK.${durable.stream}.${durable.durable}.1.2.3.4.5`,
        `$JS.API.CONSUMER.DELETE.${durable.stream}.${durable.durable}`,
      ];
      expect(api.map((subject) => apps((app) => mayPublish(perms[app], subject)))).toEqual([
        [owner],
        [owner],
        [owner],
        [],
      ]);
    }
  });

  it('lets the gateway create and read the feed stream with ordered consumers, and no service stream', () => {
    const gateway = perms.gateway;
    const feed = names.feed.name;
    expect(mayPublish(gateway, `$JS.API.STREAM.CREATE.${feed}`)).toBe(true);
    expect(mayPublish(gateway, `$JS.API.STREAM.UPDATE.${feed}`)).toBe(true);
    expect(mayPublish(gateway, `$JS.API.CONSUMER.CREATE.${feed}.Xy12ordered.${names.namespace}.>`)).toBe(
      true,
    );
    expect(mayPublish(gateway, `$JS.API.CONSUMER.MSG.NEXT.${feed}.Xy12ordered`)).toBe(true);
    expect(mayPublish(gateway, `${names.namespace}.marketplace.feed.order`)).toBe(false);
    for (const stream of Object.values(names.streams).map((s) => s.name)) {
      expect(mayPublish(gateway, `$JS.API.CONSUMER.CREATE.${stream}.Xy12ordered`)).toBe(false);
      expect(mayPublish(gateway, `$JS.API.CONSUMER.MSG.NEXT.${stream}.Xy12ordered`)).toBe(false);
      expect(mayPublish(gateway, `$JS.API.STREAM.UPDATE.${stream}`)).toBe(false);
    }
    const durable = names.consumers.adapterOrderSubmitted;
    expect(mayPublish(gateway, `$JS.API.CONSUMER.MSG.NEXT.${durable.stream}.${durable.durable}`)).toBe(false);
  });

  it('puts every public event of a service under the subjects its feed source reads', () => {
    const sourced = (subject: string) =>
      names.feed.sources.some((source) => subject.startsWith(source.filter.slice(0, -1)));
    const { offeringChanged, orderStateChanged, resourceStateChanged, accessChanged } = names.subjects;
    for (const subject of [offeringChanged, orderStateChanged, resourceStateChanged, accessChanged])
      expect(sourced(subject)).toBe(true);
    expect(sourced(names.subjects.orderSubmitted('VMware.VirtualMachine'))).toBe(false);
    expect(sourced(names.subjects.orderDone)).toBe(false);
  });

  it('lets no app delete or purge a stream, nor reach another namespace', () => {
    const other = natsPermissions(topology('other-ns'));
    for (const app of NATS_APPS) {
      for (const stream of Object.values(names.streams)) {
        expect(mayPublish(perms[app], `$JS.API.STREAM.DELETE.${stream.name}`)).toBe(false);
        expect(mayPublish(perms[app], `$JS.API.STREAM.PURGE.${stream.name}`)).toBe(false);
      }
      const everything = [...perms[app].publish.allow, ...perms[app].subscribe.allow];
      for (const subject of everything.filter((s) => !s.startsWith('$JS.API.INFO')))
        expect({
          app,
          subject,
          other: mayPublish(other[app], subject) || maySubscribe(other[app], subject),
        }).toEqual({ app, subject, other: false });
    }
  });

  it('names apps so that a variable or a file name can carry them (lowercase letters and dashes)', () => {
    for (const app of NATS_APPS) expect(app).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });
});
