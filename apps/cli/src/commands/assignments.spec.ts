import { ASSIGNMENT_KINDS } from '@app/contracts';
import { CliError } from '../cli-error';
import { ASSIGNMENT_KIND_NAMES, assignmentOption } from './assignment-options';
import { assignmentRequest } from './assignments';

const CUSTOMER = '0b6f0cbb-2a4c-4f4e-9b8e-6a3f1c2d4e5f';
const OBJECT = '7d1f7a52-8e0c-4d55-a0a3-3b1c2f6e9a10';

describe('vmware assignment add|remove', () => {
  it('has an option for every kind of assignment of the contracts', () => {
    expect(ASSIGNMENT_KIND_NAMES).toEqual([...ASSIGNMENT_KINDS]);
    expect(ASSIGNMENT_KIND_NAMES.map(assignmentOption)).toEqual([
      '--cluster',
      '--network',
      '--existing-vm-network',
      '--datastore',
      '--folder',
    ]);
  });

  it("builds the kind's body with its object field", () => {
    expect(assignmentRequest({ customer: CUSTOMER, existingVmNetwork: OBJECT })).toEqual({
      kind: 'existing-vm-networks',
      body: { customer: CUSTOMER, network: OBJECT },
    });
    const url = `https://waldur.example.com/api/vmware-datastores/${OBJECT}/`;
    expect(assignmentRequest({ customer: CUSTOMER, datastore: url })).toEqual({
      kind: 'datastores',
      body: { customer: CUSTOMER, datastore: url },
    });
  });

  it('refuses no object, two objects, or a link that is not one, naming the flag', () => {
    expect(() => assignmentRequest({ customer: CUSTOMER })).toThrow(/one of --cluster, --network/);
    expect(() => assignmentRequest({ customer: CUSTOMER, cluster: OBJECT, folder: OBJECT })).toThrow(
      '--cluster and --folder: name one object at a time',
    );
    expect(() => assignmentRequest({ customer: CUSTOMER, folder: 'f-1' })).toThrow(
      '--folder: Invalid hyperlink - Object does not exist.',
    );
    expect(() => assignmentRequest({ customer: 'acme', folder: OBJECT })).toThrow(CliError);
    expect(() => assignmentRequest({ customer: 'acme', folder: OBJECT })).toThrow(/^--customer: /);
  });
});
