import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildEnvelope } from '@app/vim25';
import { isVmTask, readSdkCall } from './sdk-request';

const fixture = (name: string) =>
  readFileSync(join(__dirname, '../../../libs/vim25/test/fixtures', name), 'utf8');

describe('readSdkCall', () => {
  it('reads the method, _this and the decoded parameters of a recorded request', () => {
    const call = readSdkCall(fixture('12-ReconfigVM_Task-add-disk.request.xml'));
    expect(call).toMatchObject({
      method: 'ReconfigVM_Task',
      self: { type: 'VirtualMachine', value: 'vm-57' },
    });
    expect(call?.args.spec).toMatchObject({
      deviceChange: { operation: 'add', fileOperation: 'create', device: { _type: 'VirtualDisk' } },
    });
  });

  it('reads what the project client sends', () => {
    const body = buildEnvelope(
      'ReconfigVM_Task',
      { type: 'VirtualMachine', value: 'vm-9' },
      {
        spec: { numCPUs: 4, memoryMB: 2048 },
      },
    );
    expect(readSdkCall(body)).toEqual({
      method: 'ReconfigVM_Task',
      self: { type: 'VirtualMachine', value: 'vm-9' },
      args: { spec: { numCPUs: '4', memoryMB: '2048' } },
    });
  });

  it('gives undefined for a body that is not a SOAP envelope', () => {
    expect(readSdkCall('not xml <')).toBeUndefined();
    expect(readSdkCall('<a/>')).toBeUndefined();
  });
});

describe('isVmTask', () => {
  const vm = { type: 'VirtualMachine', value: 'vm-1' };
  it('is true for *_Task methods on a VirtualMachine only', () => {
    expect(isVmTask({ method: 'PowerOnVM_Task', self: vm, args: {} })).toBe(true);
    expect(isVmTask({ method: 'Destroy_Task', self: vm, args: {} })).toBe(true);
    expect(isVmTask({ method: 'ShutdownGuest', self: vm, args: {} })).toBe(false);
    expect(isVmTask({ method: 'Destroy_Task', self: { type: 'Folder', value: 'f' }, args: {} })).toBe(false);
  });
});
