import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getLibrary, getLibraryItem, listLibraryItems } from './content-library';
import { REST_PATHS } from './rest-paths';
import type { ReplyDecoder, VapiCaller } from './rest-session';
import type { RestRequest } from './rest-transport';
import { vapiErrorOf } from './vapi-error';
import { createVmTemplate, deployVmTemplate, getVmTemplate } from './vm-template';

const sample = (name: string): string =>
  readFileSync(join(__dirname, '../../test/fixtures/rest', name), 'utf8');

/** A VapiCaller answering every request with one recorded body (status 200) and recording the request. */
function answering(body: string, status = 200): VapiCaller & { requests: RestRequest[] } {
  const requests: RestRequest[] = [];
  return {
    requests,
    invoke<T>(operation: string, request: RestRequest, decode: ReplyDecoder<T>): Promise<T> {
      requests.push(request);
      return new Promise<T>((resolve) => {
        if (status !== 200) throw vapiErrorOf(operation, status, body);
        resolve(decode(JSON.parse(body) as unknown));
      });
    },
  };
}

describe('REST_PATHS', () => {
  it('builds /api paths only, with ids escaped and queries encoded', () => {
    expect(REST_PATHS.libraryItem('a/b c')).toBe('/api/content/library/item/a%2Fb%20c');
    expect(REST_PATHS.libraryItems('lib 1&x=y')).toBe('/api/content/library/item?library_id=lib+1%26x%3Dy');
    expect(REST_PATHS.vmTemplateDeploy('02c1')).toBe(
      '/api/vcenter/vm-template/library-items/02c1?action=deploy',
    );
    const all = Object.values(REST_PATHS).map((p) => (typeof p === 'function' ? p('x') : p));
    expect(all.every((p) => p.startsWith('/api/'))).toBe(true);
  });
});

describe('Content Library reads', () => {
  it('decodes a library and a vm-template item', async () => {
    await expect(getLibrary(answering(sample('library.json')), 'aa1b')).resolves.toMatchObject({
      name: 'lib1',
      type: 'LOCAL',
      storage_backings: [{ type: 'DATASTORE', datastore_id: 'datastore-14' }],
    });
    const caller = answering(sample('library-item.json'));
    await expect(getLibraryItem(caller, '02c17091')).resolves.toMatchObject({
      name: 'tmpl1',
      type: 'vm-template',
      library_id: 'aa1b3431-4128-4f79-a770-bdb30d42dc5e',
    });
    expect(caller.requests[0]).toEqual({ method: 'GET', path: '/api/content/library/item/02c17091' });
  });

  it('lists the items of a library by library_id', async () => {
    const caller = answering('["i1","i2"]');
    await expect(listLibraryItems(caller, 'lib-1')).resolves.toEqual(['i1', 'i2']);
    expect(caller.requests[0].path).toBe('/api/content/library/item?library_id=lib-1');
  });

  it('surfaces an unknown item as VapiError NOT_FOUND with the message', async () => {
    await expect(
      getLibraryItem(answering(sample('error-not-found.json'), 404), 'nope'),
    ).rejects.toMatchObject({
      errorType: 'NOT_FOUND',
      operation: 'GetLibraryItem',
      message: expect.stringContaining('does not exist') as unknown,
    });
  });
});

describe('vm-template', () => {
  it("decodes a template's CPU, memory, disks, NICs and guest OS", async () => {
    const info = await getVmTemplate(answering(sample('vm-template-info.json')), '02c1');
    expect(info).toMatchObject({
      guest_OS: 'OTHER_LINUX_64',
      cpu: { count: 1, cores_per_socket: 1 },
      memory: { size_MiB: 32 },
      disks: { '2000': { capacity: 1073741824, disk_storage: { datastore: 'datastore-14' } } },
      nics: { '4000': { backing_type: 'DISTRIBUTED_PORTGROUP', network: 'dvportgroup-13' } },
    });
  });

  it('reads a template without NICs or disks as empty maps', async () => {
    const body = JSON.parse(sample('vm-template-info.json')) as Record<string, unknown>;
    delete body.nics;
    delete body.disks;
    const info = await getVmTemplate(answering(JSON.stringify(body)), '02c1');
    expect(info.nics).toEqual({});
    expect(info.disks).toEqual({});
  });

  it('refuses a details answer without cpu as a shape error', async () => {
    await expect(getVmTemplate(answering('{"guest_OS":"OTHER"}'), '02c1')).rejects.toThrow(/cpu/);
  });

  it('sends the deploy spec unwrapped to ?action=deploy and returns the VM', async () => {
    const caller = answering('"vm-73"');
    const spec = {
      name: 'web-1',
      placement: { folder: 'group-v3', cluster: 'domain-c27' },
      disk_storage: { datastore: 'datastore-14' },
      vm_home_storage: { datastore: 'datastore-14' },
      hardware_customization: {
        cpu_update: { num_cpus: 2, num_cores_per_socket: 2 },
        memory_update: { memory: 3072 },
        nics: { '4000': { network: 'dvportgroup-13' } },
      },
      powered_on: true,
    };
    await expect(deployVmTemplate(caller, '02c1', spec)).resolves.toEqual({
      type: 'VirtualMachine',
      value: 'vm-73',
    });
    expect(caller.requests[0]).toEqual({
      method: 'POST',
      path: '/api/vcenter/vm-template/library-items/02c1?action=deploy',
      body: spec,
    });
  });

  it('posts the create spec unwrapped and returns the item id', async () => {
    const caller = answering('"02c17091"');
    const spec = { source_vm: 'vm-57', name: 't', library: 'aa1b', placement: { folder: 'group-v3' } };
    await expect(createVmTemplate(caller, spec)).resolves.toBe('02c17091');
    expect(caller.requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/vcenter/vm-template/library-items',
      body: spec,
    });
  });
});
