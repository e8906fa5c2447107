import { parseXml } from '../xml/xml-tree';
import { decodeElement } from '../xml/decoder';
import { fixture } from '../../test/support/fixture-caller';
import { buildEnvelope } from './soap-envelope';

function bodyOf(xml: string) {
  const envelope = parseXml(xml);
  const body = envelope.children.find((c) => c.name === 'Body');
  const call = body?.children[0];
  if (!call) throw new Error('no call element');
  return { name: call.name, ns: call.ns, value: decodeElement(call) };
}

describe('buildEnvelope', () => {
  it('writes _this, escaped arguments and omits unset ones', () => {
    const xml = buildEnvelope(
      'Login',
      { type: 'SessionManager', value: 'SessionManager' },
      { userName: 'a&b', password: '<p>', locale: undefined },
    );
    expect(xml).toContain(
      '<Login xmlns="urn:vim25"><_this type="SessionManager">SessionManager</_this><userName>a&amp;b</userName><password>&lt;p&gt;</password></Login>',
    );
    expect(xml).not.toContain('locale');
  });

  it('writes the recorded add-disk ReconfigVM_Task request (xsi:type, key order, MoRef)', () => {
    const xml = buildEnvelope(
      'ReconfigVM_Task',
      { type: 'VirtualMachine', value: 'vm-57' },
      {
        spec: {
          deviceChange: [
            {
              operation: 'add',
              fileOperation: 'create',
              device: {
                _type: 'VirtualDisk',
                key: -101,
                backing: {
                  _type: 'VirtualDiskFlatVer2BackingInfo',
                  fileName: '',
                  diskMode: 'persistent',
                  thinProvisioned: true,
                },
                controllerKey: 202,
                unitNumber: 1,
                capacityInKB: 10485760,
              },
            },
          ],
        },
      },
    );
    const ours = bodyOf(xml);
    const recorded = bodyOf(fixture('12-ReconfigVM_Task-add-disk.request.xml'));
    expect(ours).toEqual(recorded);
    expect(ours.ns).toBe('urn:vim25');
  });

  it('sends a device read from vCenter back unchanged (extend-disk request)', () => {
    const recorded = bodyOf(fixture('13-ReconfigVM_Task-extend-disk.request.xml'));
    const spec = (recorded.value as { spec: Parameters<typeof buildEnvelope>[2] }).spec;
    const xml = buildEnvelope('ReconfigVM_Task', { type: 'VirtualMachine', value: 'vm-57' }, { spec });
    expect(bodyOf(xml)).toEqual(recorded);
  });

  it('refuses non-finite numbers', () => {
    expect(() => buildEnvelope('X', { type: 'T', value: 'v' }, { n: Number.NaN })).toThrow(/NaN/);
  });
});
