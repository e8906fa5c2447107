import { INCORRECT_TYPE, NO_URL_MATCH, parseLink, parseNetworkLinks } from './order-links';

const uuid = '0b1c7a52-6f0e-4c55-9d3a-2a5e4c1f7e10';

describe('parseLink', () => {
  it('takes the full URL, the path or the bare uuid of its own collection', () => {
    for (const link of [
      `https://waldur.example/api/vmware-templates/${uuid}/`,
      `/api/vmware-templates/${uuid}`,
      uuid.toUpperCase(),
    ])
      expect(parseLink('template', link)).toEqual({ ok: true, uuid });
  });

  it("refuses another collection's link and anything that is not a string, as DRF does", () => {
    expect(parseLink('template', `/api/vmware-clusters/${uuid}/`)).toEqual({
      ok: false,
      message: NO_URL_MATCH,
    });
    expect(parseLink('cluster', 42)).toEqual({ ok: false, message: INCORRECT_TYPE.replace('%s', 'number') });
  });
});

describe('parseNetworkLinks', () => {
  it('takes links and {url} objects, once each', () => {
    expect(parseNetworkLinks([uuid, { url: `/api/vmware-networks/${uuid}/` }])).toEqual({
      ok: true,
      uuids: [uuid],
    });
  });

  it('refuses a value that is not a list, or a bad item', () => {
    expect(parseNetworkLinks(uuid)).toEqual({
      ok: false,
      message: 'Expected a list of items but got type "string".',
    });
    expect(parseNetworkLinks([{ href: uuid }])).toEqual({
      ok: false,
      message: INCORRECT_TYPE.replace('%s', 'undefined'),
    });
  });
});
