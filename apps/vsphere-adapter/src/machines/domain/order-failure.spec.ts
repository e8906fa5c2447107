import { VapiError, VimFault, VimTransportError } from '@app/vim25';
import { CredentialCipherError } from '../../integration/domain/credential-cipher';
import { IncompleteCredentialsError } from '../../integration/domain/vcenter-connection';
import { endsTheOrder, OrderRefused } from './order-failure';

/** A pg error as the driver raises it (a plain Error with the SQLSTATE in `code`). */
function pgError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

/** The same as TypeORM hands it on: a QueryFailedError holding it as `driverError`. */
function typeormError(driverError: Error): Error {
  return Object.assign(new Error(driverError.message), { name: 'QueryFailedError', driverError });
}

describe('endsTheOrder', () => {
  it("ends the order on vCenter's refusals", () => {
    expect(endsTheOrder(new VimFault('PowerOnVM_Task', 'InvalidPowerState', 'x'))).toBe(true);
    expect(endsTheOrder(new VimFault('CloneVM_Task', 'DuplicateName', 'x'))).toBe(true);
    expect(endsTheOrder(new VapiError('DeployVmTemplate', 'NOT_FOUND', 'gone', 404, []))).toBe(true);
  });

  it('ends it on what only an operator can mend: TLS, an answer that is not a vCenter, unusable credentials', () => {
    expect(endsTheOrder(new VimTransportError('Login', 'tls', 'x'))).toBe(true);
    expect(endsTheOrder(new VimTransportError('Login', 'protocol', 'x'))).toBe(true);
    expect(endsTheOrder(new VimTransportError('Login', 'http', 'x', { status: 404 }))).toBe(true);
    expect(endsTheOrder(new IncompleteCredentialsError(['password']))).toBe(true);
    expect(endsTheOrder(new CredentialCipherError('unknown key id'))).toBe(true);
  });

  it('ends it on a refusal of ours', () => {
    expect(endsTheOrder(new OrderRefused('The order names no cluster.'))).toBe(true);
  });

  it('retries an unreachable, slow or restarting vCenter, and an abort', () => {
    for (const kind of ['network', 'timeout', 'aborted'] as const)
      expect(endsTheOrder(new VimTransportError('DeployVmTemplate', kind, 'x'))).toBe(false);
    expect(endsTheOrder(new VimTransportError('Login', 'http', 'x', { status: 503 }))).toBe(false);
  });

  it('retries a VM that another task holds (TaskInProgress): vCenter says not now, not no', () => {
    expect(
      endsTheOrder(new VimFault('PowerOnVM_Task', 'TaskInProgress', 'Another task is already in progress.')),
    ).toBe(false);
  });

  it('retries every failure of our own Postgres: refused, starting up, cut off, through TypeORM or not', () => {
    const refused = pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED');
    const startingUp = pgError('the database system is starting up', '57P03');
    const terminated = pgError('terminating connection due to administrator command', '57P01');
    for (const error of [refused, startingUp, terminated, new Error('Connection terminated unexpectedly')]) {
      expect(endsTheOrder(error)).toBe(false);
      expect(endsTheOrder(typeormError(error))).toBe(false);
    }
  });

  it('retries what it does not know rather than giving it to the customer as an answer', () => {
    expect(endsTheOrder(new Error('x'))).toBe(false);
    expect(endsTheOrder(new TypeError("Cannot read properties of undefined (reading 'uuid')"))).toBe(false);
    expect(endsTheOrder('a string')).toBe(false);
  });
});
