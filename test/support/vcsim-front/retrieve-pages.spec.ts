import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readResultObjects, retrieveResultEnvelope } from './retrieve-pages';

const recorded = readFileSync(
  join(
    __dirname,
    '..',
    '..',
    '..',
    'libs',
    'vim25',
    'test',
    'fixtures',
    '04-RetrievePropertiesEx-vms.response.xml',
  ),
  'utf8',
);

describe('readResultObjects', () => {
  it("reads vcsim's ObjectContents in order, whole", () => {
    const objects = readResultObjects(recorded)!;
    expect(objects).toHaveLength(4);
    expect(objects[0]).toMatch(/^<objects><obj type="VirtualMachine">vm-57<\/obj>[\s\S]*<\/objects>$/);
  });

  it('finds no result in a fault', () => {
    expect(readResultObjects('<soapenv:Fault><faultstring>x</faultstring></soapenv:Fault>')).toBeUndefined();
  });
});

describe('retrieveResultEnvelope', () => {
  it('writes the token before the objects (WSDL order), and none on the last page', () => {
    const [first, second] = readResultObjects(recorded)!;
    const page = retrieveResultEnvelope('RetrievePropertiesEx', [first, second], 'tok-1');
    expect(page).toContain(
      `<RetrievePropertiesExResponse xmlns="urn:vim25"><returnval><token>tok-1</token>${first}${second}</returnval>`,
    );
    expect(readResultObjects(page)).toEqual([first, second]);
    expect(retrieveResultEnvelope('ContinueRetrievePropertiesEx', [first], undefined)).not.toContain(
      '<token>',
    );
  });
});
