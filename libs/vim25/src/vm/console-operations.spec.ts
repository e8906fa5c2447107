import { vmrcUrl, webMksUrl } from './console-operations';

describe('console URLs', () => {
  it('vmrcUrl names the VM by its moid and carries no ticket', () => {
    expect(vmrcUrl('vc.example.org:8443', { type: 'VirtualMachine', value: 'vm-42' })).toBe(
      'vmrc://vc.example.org:8443/?moid=vm-42',
    );
  });

  it('webMksUrl keeps the URL vCenter gave with the ticket', () => {
    expect(webMksUrl({ ticket: 't', url: 'wss://esx-1:443/ticket/t' }, 'vc')).toBe(
      'wss://esx-1:443/ticket/t',
    );
  });

  it("webMksUrl builds the ESXi host's URL from host and port, the ticket encoded", () => {
    expect(webMksUrl({ ticket: 'a/b c', host: 'esx-1.example.org', port: 902 }, 'vc')).toBe(
      'wss://esx-1.example.org:902/ticket/a%2Fb%20c',
    );
  });

  it("webMksUrl brackets an IPv6 host and falls back to vCenter's host on port 443", () => {
    expect(webMksUrl({ ticket: 't', host: 'fd00::15' }, 'vc')).toBe('wss://[fd00::15]:443/ticket/t');
    expect(webMksUrl({ ticket: 't' }, '[fd00::1]')).toBe('wss://[fd00::1]:443/ticket/t');
  });
});
