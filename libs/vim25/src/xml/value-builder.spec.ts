import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { fixture } from '../../test/support/fixture-caller';
import { decodeElement } from './decoder';
import { decodeXml } from './value-builder';
import { parseXml } from './xml-tree';

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const XSD = 'http://www.w3.org/2001/XMLSchema';

/** The reference: the element tree, then decodeElement. */
const viaTree = (xml: string) => decodeElement(parseXml(xml));

describe('decodeXml (the streaming decoder)', () => {
  it.each(readdirSync(join(__dirname, '../../test/fixtures')).filter((f) => f.endsWith('.xml')))(
    'decodes the recorded %s exactly as decodeElement does on the element tree',
    (name) => {
      const xml = fixture(name);
      expect(decodeXml(xml)).toStrictEqual(viaTree(xml));
    },
  );

  it("reads vcsim's XMLSchema-instance:type declared inline, and any prefix bound to the XSI namespace", () => {
    const xml =
      `<r xmlns:xsd="${XSD}" xmlns:xsi="urn:not-xsi">` +
      `<v xmlns:XMLSchema-instance="${XSI}" XMLSchema-instance:type="xsd:int">42</v>` +
      `<w xmlns:q="${XSI}" q:type="xsd:boolean">true</w>` +
      '<x xsi:type="xsd:int">7</x></r>';
    expect(decodeXml(xml)).toStrictEqual({ v: 42, w: true, x: '7' });
  });

  it('keeps one-element arrays single, repeats as arrays, ArrayOf* always arrays (even of one or none)', () => {
    const xml =
      `<r xmlns:x="${XSI}" xmlns:xsd="${XSD}">` +
      '<one><device>600</device></one><two><device>1</device><device>2</device></two>' +
      '<arr x:type="ArrayOfManagedObjectReference"><ManagedObjectReference type="Network">network-7</ManagedObjectReference></arr>' +
      '<ints x:type="ArrayOfInt"><int>3</int></ints><none x:type="ArrayOfString"/>' +
      '<mixed><a>1</a><b>2</b><a>3</a></mixed></r>';
    const decoded = decodeXml(xml);
    expect(decoded).toStrictEqual({
      one: { device: '600' },
      two: { device: ['1', '2'] },
      arr: [{ type: 'Network', value: 'network-7' }],
      ints: [3],
      none: [],
      mixed: { a: ['1', '3'], b: '2' },
    });
    expect(decoded).toStrictEqual(viaTree(xml));
  });

  it('decodes a missingSet with its NotAuthenticated fault (an expired session, as vcsim answers it)', () => {
    const xml =
      `<returnval xmlns:xsi="${XSI}"><objects><obj type="VirtualMachine">vm-1</obj>` +
      '<missingSet><path>name</path><fault><fault xsi:type="NotAuthenticated"><object type="Folder">group-d1</object>' +
      '<privilegeId>System.View</privilegeId></fault><localizedMessage></localizedMessage></fault></missingSet></objects></returnval>';
    expect(decodeXml(xml)).toStrictEqual({
      objects: {
        obj: { type: 'VirtualMachine', value: 'vm-1' },
        missingSet: {
          path: 'name',
          fault: {
            fault: {
              _type: 'NotAuthenticated',
              object: { type: 'Folder', value: 'group-d1' },
              privilegeId: 'System.View',
            },
            localizedMessage: '',
          },
        },
      },
    });
  });

  it('keeps a field named __proto__ as a field, not as the prototype', () => {
    const decoded = decodeXml('<r><__proto__><polluted>1</polluted></__proto__></r>') as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(Object.keys(decoded)).toEqual(['__proto__']);
    // The element tree's parser (fast-xml-parser) refuses such a name outright: safe either way.
    expect(() => viaTree('<r><__proto__><polluted>1</polluted></__proto__></r>')).toThrow(/__proto__/);
  });

  it('refuses XML that is not well formed', () => {
    expect(() => decodeXml('<a><b></a>')).toThrow(SyntaxError);
  });

  // Random documents in the vim25 wire shapes: both decoders must always agree.
  const prefixes = ['xsi', 'XMLSchema-instance', 'q'] as const;
  const xsiTypes = [
    'xsd:int',
    'xsd:long',
    'xsd:boolean',
    'xsd:string',
    'xsd:double',
    'ArrayOfInt',
    'ArrayOfBoolean',
    'ArrayOfString',
    'ArrayOfVirtualDevice',
    'VirtualDisk',
    'ManagedObjectReference',
  ];
  const texts = ['', ' ', '\n  ', '42', ' 7 ', 'true', '0', 'a&amp;b', '&#65;x', '<![CDATA[<&>]]>', 'x y'];
  // No `_type`: that key is the decoded xsi:type, vim25 has no such element.
  const names = ['a', 'b', 'val', 'device', 'int', 'ns1:a'];
  interface Node {
    name: string;
    prefix: (typeof prefixes)[number];
    declareHere: boolean;
    xsiType: string | undefined;
    moType: string | undefined;
    text: string;
    children: Node[];
    selfClose: boolean;
  }
  const node: fc.Memo<Node> = fc.memo((depth) =>
    fc.record({
      name: fc.constantFrom(...names),
      prefix: fc.constantFrom(...prefixes),
      declareHere: fc.boolean(),
      xsiType: fc.option(fc.constantFrom(...xsiTypes), { nil: undefined }),
      moType: fc.option(fc.constantFrom('VirtualMachine', 'Network'), { nil: undefined }),
      text: fc.constantFrom(...texts),
      children: depth <= 1 ? fc.constant([]) : fc.array(node(depth - 1), { maxLength: 4 }),
      selfClose: fc.boolean(),
    }),
  );
  const write = (n: Node): string => {
    const attrs: string[] = [];
    // A prefix declared here or (else) on the root: both must resolve.
    if (n.declareHere) attrs.push(`xmlns:${n.prefix}="${XSI}"`);
    if (n.xsiType !== undefined) attrs.push(`${n.prefix}:type="${n.xsiType}"`);
    if (n.moType !== undefined) attrs.push(`type='${n.moType}'`);
    const open = `<${[n.name, ...attrs].join(' ')}`;
    if (n.selfClose && n.children.length === 0) return `${open}/>`;
    return `${open}>${n.text}${n.children.map(write).join('')}</${n.name}>`;
  };
  const document = (root: Node) =>
    `<r xmlns:xsd="${XSD}" xmlns:ns1="urn:vim25" ${prefixes.map((p) => `xmlns:${p}="${XSI}"`).join(' ')}>${write(root)}</r>`;

  it('agrees with decodeElement on random vim25-shaped documents', () => {
    fc.assert(
      fc.property(node(5), (root) => {
        const xml = document(root);
        expect(decodeXml(xml)).toStrictEqual(viaTree(xml));
      }),
      { numRuns: 500 },
    );
  });
});
