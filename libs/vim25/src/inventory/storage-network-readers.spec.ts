import { fixture, ScriptedCaller } from '../../test/support/fixture-caller';
import type { ServiceContent } from '../types/service-content';
import { readNetworks } from './storage-network-readers';

const XSI = 'xmlns:XMLSchema-instance="http://www.w3.org/2001/XMLSchema-instance"';
const val = (type: string, inner: string) => `<val ${XSI} XMLSchema-instance:type="${type}">${inner}</val>`;
const prop = (name: string, type: string, inner: string) =>
  `<propSet><name>${name}</name>${val(type, inner)}</propSet>`;
const envelope = (response: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soapenv:Body>${response}</soapenv:Body></soapenv:Envelope>`;

const dvsRef = `<propSet><name>config.distributedVirtualSwitch</name><val ${XSI} type="VmwareDistributedVirtualSwitch" XMLSchema-instance:type="ManagedObjectReference">dvs-9</val></propSet>`;

// What vCenter 8 answers for the networks view (recorded-style; vcsim marks no uplink port group).
const networksPage = envelope(
  '<RetrievePropertiesExResponse xmlns="urn:vim25"><returnval>' +
    `<objects><obj type="Network">network-7</obj>${prop('name', 'xsd:string', 'VM Network')}</objects>` +
    `<objects><obj type="DistributedVirtualPortgroup">dvportgroup-11</obj>${prop('name', 'xsd:string', 'DSwitch-DVUplinks-9')}${prop('key', 'xsd:string', 'dvportgroup-11')}` +
    dvsRef +
    `${prop('tag', 'ArrayOfTag', '<Tag><key>SYSTEM/DVS.UPLINKPG</key></Tag>')}</objects>` +
    `<objects><obj type="DistributedVirtualPortgroup">dvportgroup-13</obj>${prop('name', 'xsd:string', 'Prod &amp; Test')}${prop('key', 'xsd:string', 'dvportgroup-13')}` +
    dvsRef +
    `${prop('tag', 'ArrayOfTag', '')}</objects>` +
    `<objects><obj type="OpaqueNetwork">network-o1</obj>${prop('name', 'xsd:string', 'nsx-seg')}` +
    `${prop('summary', 'OpaqueNetworkSummary', '<network type="OpaqueNetwork">network-o1</network><name>nsx-seg</name><accessible>true</accessible><opaqueNetworkId>ls-1</opaqueNetworkId><opaqueNetworkType>nsx.LogicalSwitch</opaqueNetworkType>')}</objects>` +
    `<objects><obj type="VmwareDistributedVirtualSwitch">dvs-9</obj>${prop('uuid', 'xsd:string', '50 12 ab')}</objects>` +
    '</returnval></RetrievePropertiesExResponse>',
);

const content: ServiceContent = {
  rootFolder: { type: 'Folder', value: 'group-d1' },
  propertyCollector: { type: 'PropertyCollector', value: 'propertyCollector' },
  viewManager: { type: 'ViewManager', value: 'ViewManager' },
  sessionManager: { type: 'SessionManager', value: 'SessionManager' },
  about: { name: '', fullName: '', version: '', apiType: 'VirtualCenter', apiVersion: '8.0.1.0' },
};

describe('readNetworks', () => {
  it('reads the three kinds in one retrieval, joins the switch uuid and flags the uplink port group', async () => {
    const caller = new ScriptedCaller()
      .on('CreateContainerView', { status: 200, body: fixture('03-CreateContainerView.response.xml') })
      .on('RetrievePropertiesEx', { status: 200, body: networksPage })
      .on('DestroyView', {
        status: 200,
        body: envelope('<DestroyViewResponse xmlns="urn:vim25"></DestroyViewResponse>'),
      });
    const networks = await readNetworks({ caller, content, serverAddress: 'vc' });
    expect(networks).toEqual([
      { kind: 'standard', ref: { type: 'Network', value: 'network-7' }, name: 'VM Network' },
      expect.objectContaining({
        kind: 'distributed',
        name: 'DSwitch-DVUplinks-9',
        uplink: true,
        switchUuid: '50 12 ab',
      }),
      expect.objectContaining({
        kind: 'distributed',
        name: 'Prod & Test',
        portgroupKey: 'dvportgroup-13',
        uplink: false,
        switchUuid: '50 12 ab',
      }),
      {
        kind: 'opaque',
        ref: { type: 'OpaqueNetwork', value: 'network-o1' },
        name: 'nsx-seg',
        opaqueNetworkId: 'ls-1',
        opaqueNetworkType: 'nsx.LogicalSwitch',
      },
    ]);
    expect(caller.operations()).toEqual(['CreateContainerView', 'RetrievePropertiesEx', 'DestroyView']);
    expect(caller.calls[0].envelope).toContain('<type>Network</type><type>DistributedVirtualSwitch</type>');
  });
});
