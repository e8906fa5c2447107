import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { scanVcenterCalls } from './vcenter-call-scan';

/** A product tree of its own: apps/*\/src and libs/*\/src files, as `path → text`. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'vcenter-calls-'));
  mkdirSync(join(root, 'libs', 'vim25', 'src'), { recursive: true });
  mkdirSync(join(root, 'apps'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('scanVcenterCalls', () => {
  const roots: string[] = [];
  const scan = (files: Record<string, string>) => {
    const root = tree(files);
    roots.push(root);
    return scanVcenterCalls(root);
  };
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  it('finds a SOAP method called through the client, with the managed object its doc comment names', () => {
    const found = scan({
      'apps/a/src/snapshots.ts': [
        "import { invokeForMoRef as call } from '@app/vim25';",
        '/** VirtualMachineSnapshot.RevertToSnapshot_Task: back to the snapshot. */',
        'export async function revert(c: never, s: never) {',
        "  return call(c, 'RevertToSnapshot_Task', s, {});",
        '}',
      ].join('\n'),
    });
    expect(found.soap.map((f) => f.call)).toEqual(['VirtualMachineSnapshot.RevertToSnapshot_Task']);
    expect(found.unreadable).toEqual([]);
  });

  it('finds a REST operation as its verb and REST_PATHS key', () => {
    const found = scan({
      'libs/x/src/rest.ts': [
        "import { REST_PATHS } from '@app/vim25';",
        "export const r = (id: string) => ({ method: 'GET', path: REST_PATHS.vmTemplateItem(id) });",
      ].join('\n'),
    });
    expect(found.rest.map((f) => f.call)).toEqual(['GET vmTemplateItem']);
  });

  it('cannot read, and so reports: an undocumented caller, a computed method, a path used elsewhere, hand-made calls', () => {
    const found = scan({
      'apps/a/src/bad.ts': [
        "import { invoke, REST_PATHS } from '@app/vim25';",
        "export async function undocumented(c: never, m: never) { return invoke(c, 'QueryPerf', m); }",
        '/** PerformanceManager.QueryPerf: x */ export async function computed(c: never, m: never, n: string) { return invoke(c, n, m); }',
        'export const loose = REST_PATHS.session;',
        "export const path = '/api/vcenter/vm';",
      ].join('\n'),
    });
    expect(found.soap).toEqual([]);
    expect(found.unreadable.map((u) => u.replace(/^[^ ]+ /, ''))).toEqual([
      'QueryPerf called without "<ManagedObjectType>.QueryPerf" in the doc comment of the function calling it',
      'invoke() with a method name that is not a literal',
      'REST_PATHS.session used outside a { method, path } request literal',
      'a vSphere Automation path written out (use REST_PATHS)',
    ]);
  });

  it("leaves alone another library's function of the same name, and specs", () => {
    const found = scan({
      'libs/messaging/src/outbox.ts':
        "import { buildEnvelope } from './envelope';\nexport const e = buildEnvelope(x, 'order.done');",
      'apps/a/src/thing.spec.ts': "import { invoke } from '@app/vim25';\ninvoke(c, 'Nothing', m);",
    });
    expect(found).toEqual({ soap: [], rest: [], unreadable: [] });
  });
});
