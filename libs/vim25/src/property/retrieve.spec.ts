import { replyOf, ScriptedCaller } from '../../test/support/fixture-caller';
import { retrieveAll, retrievePages } from './retrieve';

const collector = { type: 'PropertyCollector', value: 'propertyCollector' };
const spec = {
  propSet: [{ type: 'VirtualMachine', pathSet: ['name'] }],
  objectSet: [{ obj: { type: 'Folder', value: 'group-d1' } }],
};

describe('retrieveAll', () => {
  it('follows continuation tokens until a page comes without one', async () => {
    const caller = new ScriptedCaller()
      .on('RetrievePropertiesEx', replyOf('paged-1-RetrievePropertiesEx.response.xml'))
      .on(
        'ContinueRetrievePropertiesEx',
        replyOf('paged-2-ContinueRetrievePropertiesEx.response.xml'),
        replyOf('paged-3-ContinueRetrievePropertiesEx.response.xml'),
      );
    const objects = await retrieveAll(caller, collector, [spec], { pageSize: 2 });
    expect(objects.map((o) => o.obj.value)).toEqual(['vm-101', 'vm-102', 'vm-103', 'vm-104', 'vm-105']);
    expect(objects[4].props.get('name')).toBe('vm-e & <f> ☺');
    expect(caller.operations()).toEqual([
      'RetrievePropertiesEx',
      'ContinueRetrievePropertiesEx',
      'ContinueRetrievePropertiesEx',
    ]);
    expect(caller.calls[0].envelope).toContain('<options><maxObjects>2</maxObjects></options>');
    expect(caller.calls[0].envelope).toContain(
      '<propSet><type>VirtualMachine</type><all>false</all><pathSet>name</pathSet></propSet>',
    );
    expect(caller.calls[1].envelope).toContain('<token>page-token-1</token>');
    expect(caller.calls[2].envelope).toContain('<token>page-token-2</token>');
  });

  it('reads a single page when vCenter sends no token (vcsim)', async () => {
    const caller = new ScriptedCaller().on(
      'RetrievePropertiesEx',
      replyOf('04-RetrievePropertiesEx-vms.response.xml'),
    );
    const objects = await retrieveAll(caller, collector, [spec]);
    expect(objects.map((o) => o.props.get('name'))).toEqual([
      'DC0_H0_VM0',
      'DC0_H0_VM1',
      'DC0_C0_RP0_VM0',
      'DC0_C0_RP0_VM1',
    ]);
    expect(objects[0].props.get('config.hardware.numCPU')).toBe(1);
    expect(caller.operations()).toEqual(['RetrievePropertiesEx']);
  });

  it('exposes the missingSet with its fault', async () => {
    const caller = new ScriptedCaller().on(
      'RetrievePropertiesEx',
      replyOf('19-RetrievePropertiesEx-no-session.response.xml'),
    );
    const [vm] = await retrieveAll(caller, collector, [spec]);
    expect(vm.props.size).toBe(0);
    expect(vm.missing).toHaveLength(1);
    expect(vm.missing[0].path).toBe('name');
    expect(vm.missing[0].fault).toMatchObject({
      fault: { _type: 'NotAuthenticated', privilegeId: 'System.Read' },
    });
  });

  it('stops between pages when the signal aborts', async () => {
    const controller = new AbortController();
    const caller = new ScriptedCaller().on('RetrievePropertiesEx', () => {
      controller.abort(new Error('stop'));
      return replyOf('paged-1-RetrievePropertiesEx.response.xml');
    });
    await expect(retrieveAll(caller, collector, [spec], { signal: controller.signal })).rejects.toThrow(
      'stop',
    );
  });
});

describe('retrievePages', () => {
  const paged = () =>
    new ScriptedCaller()
      .on('RetrievePropertiesEx', replyOf('paged-1-RetrievePropertiesEx.response.xml'))
      .on(
        'ContinueRetrievePropertiesEx',
        replyOf('paged-2-ContinueRetrievePropertiesEx.response.xml'),
        replyOf('paged-3-ContinueRetrievePropertiesEx.response.xml'),
      )
      .on('CancelRetrievePropertiesEx', {
        status: 200,
        body: '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><CancelRetrievePropertiesExResponse xmlns="urn:vim25"/></soapenv:Body></soapenv:Envelope>',
      });

  it('asks for the next page only when the caller takes it', async () => {
    const caller = paged();
    const pages: string[][] = [];
    for await (const page of retrievePages(caller, collector, [spec], { pageSize: 2 })) {
      pages.push(page.map((o) => o.obj.value));
      // One page requested per page taken: none read ahead.
      expect(caller.calls).toHaveLength(pages.length);
    }
    expect(pages).toEqual([['vm-101', 'vm-102'], ['vm-103', 'vm-104'], ['vm-105']]);
    expect(caller.operations()).not.toContain('CancelRetrievePropertiesEx');
  });

  it('cancels the rest of the result when the caller stops early', async () => {
    const caller = paged();
    for await (const page of retrievePages(caller, collector, [spec], { pageSize: 2 })) {
      expect(page).toHaveLength(2);
      break;
    }
    expect(caller.operations()).toEqual(['RetrievePropertiesEx', 'CancelRetrievePropertiesEx']);
    expect(caller.calls[1].envelope).toContain('<token>page-token-1</token>');
  });

  it('stops between pages when the signal fires, the rest cancelled', async () => {
    const caller = paged();
    const stop = new AbortController();
    const taken: number[] = [];
    await expect(
      (async () => {
        for await (const page of retrievePages(caller, collector, [spec], {
          pageSize: 2,
          signal: stop.signal,
        })) {
          taken.push(page.length);
          stop.abort(new Error('stopping'));
        }
      })(),
    ).rejects.toThrow('stopping');
    expect(taken).toEqual([2]);
    expect(caller.operations()).toEqual(['RetrievePropertiesEx', 'CancelRetrievePropertiesEx']);
  });
});
