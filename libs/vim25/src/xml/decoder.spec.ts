import { fixture } from '../../test/support/fixture-caller';
import { readResponse } from './envelope-reader';
import { decodeElement } from './decoder';
import { asArray, asObject } from './values';
import { parseXml } from './xml-tree';

const ok = (name: string) => readResponse('RetrievePropertiesEx', { status: 200, body: fixture(name) });

describe('vim25 decoder', () => {
  it('reads XMLSchema-instance:type by namespace URI: xsd:int is a number, enums stay strings', () => {
    const objects = asArray(asObject(ok('04-RetrievePropertiesEx-vms.response.xml'))?.objects);
    expect(objects).toHaveLength(4);
    const first = asObject(objects[0]);
    expect(first?.obj).toEqual({ type: 'VirtualMachine', value: 'vm-57' });
    expect(asArray(first?.propSet).map((p) => asObject(p)?.val)).toEqual(['DC0_H0_VM0', 'poweredOn', 1]);
  });

  it('reads any prefix bound to the XML Schema instance namespace, and ignores a look-alike', () => {
    const xml =
      '<r xmlns:q="http://www.w3.org/2001/XMLSchema-instance" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:xsi="urn:not-xsi">' +
      '<a q:type="s:boolean">true</a><b xsi:type="s:int">7</b></r>';
    expect(decodeElement(parseXml(xml))).toEqual({ a: true, b: '7' });
  });

  it('resolves a prefix declared on an ancestor (nested devices of an ArrayOfVirtualDevice)', () => {
    const result = asObject(ok('RetrievePropertiesEx-vm-devices.response.xml'));
    const val = asObject(asObject(result?.objects)?.propSet)?.val;
    expect(Array.isArray(val)).toBe(true);
    const devices = asArray(val).map(asObject);
    const disk = devices.find((d) => d?._type === 'VirtualDisk');
    expect(asObject(disk?.backing)?._type).toBe('VirtualDiskFlatVer2BackingInfo');
    expect(asObject(disk?.deviceInfo)?._type).toBe('Description');
    expect(asObject(disk?.backing)?.datastore).toMatchObject({ type: 'Datastore' });
  });

  it('keeps one-element arrays as single values, repeated elements as arrays, ArrayOf* always arrays', () => {
    const xml =
      '<r xmlns:x="http://www.w3.org/2001/XMLSchema-instance"><one><device>600</device></one><two><device>1</device><device>2</device></two>' +
      '<arr x:type="ArrayOfManagedObjectReference"><ManagedObjectReference type="Network">network-7</ManagedObjectReference></arr>' +
      '<ints x:type="ArrayOfInt"><int>3</int></ints></r>';
    expect(decodeElement(parseXml(xml))).toEqual({
      one: { device: '600' },
      two: { device: ['1', '2'] },
      arr: [{ type: 'Network', value: 'network-7' }],
      ints: [3],
    });
    expect(asArray('600')).toEqual(['600']);
  });

  it('decodes character references once (no double decoding) and keeps CDATA literal', () => {
    const xml = '<r><a>x &amp;#65; &#65;&#x263A; &lt;</a><b><![CDATA[&amp;<]]></b></r>';
    expect(decodeElement(parseXml(xml))).toEqual({ a: 'x &#65; A☺ <', b: '&amp;<' });
  });

  it('decodes an empty typed element as an empty data object', () => {
    const xml =
      '<r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><f xsi:type="InvalidLogin"></f><s></s></r>';
    expect(decodeElement(parseXml(xml))).toEqual({ f: { _type: 'InvalidLogin' }, s: '' });
  });
});
