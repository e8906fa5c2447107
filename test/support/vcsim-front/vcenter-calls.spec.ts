import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REST_PATHS } from '@app/vim25';
import { scanVcenterCalls, type FoundCall } from './vcenter-call-scan';
import { REST_CALLS, SOAP_CALLS } from './vcenter-calls';

const ROOT = join(__dirname, '..', '..', '..');
const scan = scanVcenterCalls(ROOT);

/** The path REST_PATHS[key] builds, every parameter written `{id}`. */
function pathOf(key: string): string {
  const entry = (REST_PATHS as Record<string, string | ((...ids: string[]) => string)>)[key];
  if (entry === undefined) return `<no REST_PATHS.${key}>`;
  const built = typeof entry === 'function' ? entry(...Array<string>(entry.length).fill('{id}')) : entry;
  return decodeURIComponent(built);
}

const restCall = (found: FoundCall): string => {
  const [verb, key] = found.call.split(' ');
  return `${verb} ${pathOf(key ?? '')}`;
};

function missingFrom(listed: readonly string[], found: FoundCall[], name = (f: FoundCall) => f.call) {
  return found.filter((f) => !listed.includes(name(f))).map((f) => `${name(f)} (${f.at})`);
}

describe('the inventory of vCenter calls (vcenter-calls.ts)', () => {
  it('reads every call the product makes (a method name or path it cannot read is a failure)', () => {
    expect(scan.unreadable).toEqual([]);
    // The scan must see the calls at all: without this a broken scan would pass everything.
    expect(scan.soap.length).toBeGreaterThanOrEqual(SOAP_CALLS.length);
    expect(scan.rest.length).toBeGreaterThanOrEqual(REST_CALLS.length);
  });

  it('lists every SOAP method the code calls, with the managed object it is called on', () => {
    expect(missingFrom(SOAP_CALLS, scan.soap)).toEqual([]);
  });

  it('lists no SOAP method the code no longer calls', () => {
    const called = new Set(scan.soap.map((f) => f.call));
    expect(SOAP_CALLS.filter((c) => !called.has(c))).toEqual([]);
  });

  it('lists every vSphere Automation operation the code calls', () => {
    expect(missingFrom(REST_CALLS, scan.rest, restCall)).toEqual([]);
  });

  it('lists no vSphere Automation operation the code no longer calls', () => {
    const called = new Set(scan.rest.map(restCall));
    expect(REST_CALLS.filter((c) => !called.has(c))).toEqual([]);
  });

  it('keeps each list sorted and without duplicates (one line per entry merges cleanly)', () => {
    for (const list of [SOAP_CALLS, REST_CALLS]) {
      expect([...new Set(list)]).toEqual(list);
      expect([...list].sort()).toEqual(list);
    }
  });
});

describe('the audit in README.md', () => {
  const readme = readFileSync(join(__dirname, 'README.md'), 'utf8');
  const audit = readme.slice(readme.indexOf('## Audit:'));

  it('has its section', () => {
    expect(audit.startsWith('## Audit:')).toBe(true);
  });

  it('names every call of the inventory, in a row or among the calls without one', () => {
    const unnamed = [...SOAP_CALLS, ...REST_CALLS].filter((c) => !audit.includes(`\`${c}\``));
    expect(unnamed).toEqual([]);
  });
});
