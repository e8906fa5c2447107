import { judgeVersion, takeAnswer, type CollectorVersions } from './collector-versions';
import { readHeldUpdates, updateSetEnvelope } from './update-sets';

const update = (filter: string, vm: string) => ({
  filter: `<filter type="PropertyFilter">${filter}</filter>`,
  objectSet: `<objectSet><kind>modify</kind><obj type="VirtualMachine">${vm}</obj></objectSet>`,
});

describe('judgeVersion', () => {
  it("takes '' as initial, the last version answered as current, anything else as invalid", () => {
    const collector: CollectorVersions = { issued: '3', serial: 3, held: [] };
    expect(judgeVersion(collector, '')).toBe('initial');
    expect(judgeVersion(collector, '3')).toBe('current');
    expect(judgeVersion(collector, '2')).toBe('invalid');
    expect(judgeVersion(undefined, '3')).toBe('invalid');
    expect(judgeVersion(undefined, '')).toBe('initial');
  });
});

describe('takeAnswer', () => {
  it('answers at most max updates, truncated while some are held, each under a new version', () => {
    const collector: CollectorVersions = { serial: 0, held: [1, 2, 3].map((n) => update('f', `vm-${n}`)) };
    const first = takeAnswer(collector, 2);
    expect(first).toMatchObject({ version: '1', truncated: true });
    expect(first.updates).toHaveLength(2);
    expect(takeAnswer(collector, 2)).toMatchObject({ version: '2', truncated: false });
    expect(collector.held).toEqual([]);
    expect(judgeVersion(collector, '1')).toBe('invalid');
  });
});

describe('readHeldUpdates and updateSetEnvelope', () => {
  it('reads the updates of an answer per filter and writes them back grouped, truncated when told', () => {
    const answer = updateSetEnvelope('-', false, [
      update('f1', 'vm-1'),
      update('f1', 'vm-2'),
      update('f2', 'vm-3'),
    ]);
    expect(answer.match(/<filterSet>/g)).toHaveLength(2);
    const read = readHeldUpdates(answer)!;
    expect(read.map((u) => /vm-\d/.exec(u.objectSet)?.[0])).toEqual(['vm-1', 'vm-2', 'vm-3']);
    expect(read[2].filter).toContain('f2');
    expect(updateSetEnvelope('7', true, read)).toContain('<version>7</version>');
    expect(updateSetEnvelope('7', true, read)).toMatch(
      /<\/filterSet><truncated>true<\/truncated><\/returnval>/,
    );
  });

  it('reads no UpdateSet from an answer without one (a wait that ended with no change)', () => {
    expect(
      readHeldUpdates(
        '<soapenv:Body><WaitForUpdatesExResponse xmlns="urn:vim25"></WaitForUpdatesExResponse></soapenv:Body>',
      ),
    ).toBeUndefined();
  });
});
