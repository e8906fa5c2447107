import { ConfigError } from '@app/platform';
import { loadVsphereAdapterConfig } from './vsphere-adapter.config';

describe('VCENTER_ALLOWED_NETWORKS', () => {
  it('is empty when unset: Internet addresses only', () => {
    expect(loadVsphereAdapterConfig({}).VCENTER_ALLOWED_NETWORKS).toEqual({ networks: [], hostnames: [] });
  });

  it('takes CIDRs, addresses and host names', () => {
    const list = loadVsphereAdapterConfig({
      VCENTER_ALLOWED_NETWORKS: '10.20.0.0/16, ::1, vcsim',
    }).VCENTER_ALLOWED_NETWORKS;
    expect(list.networks.map(([address, bits]) => `${address.toString()}/${bits}`)).toEqual([
      '10.20.0.0/16',
      '::1/128',
    ]);
    expect(list.hostnames).toEqual(['vcsim']);
  });

  it('refuses to start on an entry it cannot read, naming the variable and the entry', () => {
    let error: unknown;
    try {
      loadVsphereAdapterConfig({ VCENTER_ALLOWED_NETWORKS: '10.0.0.0/33' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.join('\n')).toMatch(
      /VCENTER_ALLOWED_NETWORKS.*"10\.0\.0\.0\/33" is not a CIDR network/,
    );
  });
});
