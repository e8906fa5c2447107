import { isDatabaseUnavailable } from './unavailable-database';

function queryFailed(driverError: object): Error {
  return Object.assign(new Error('query failed'), { driverError });
}

describe('isDatabaseUnavailable', () => {
  it.each([
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ],
    ['a connection that ended', new Error('Connection terminated unexpectedly')],
    ['a full pool', new Error('timeout exceeded when trying to connect')],
    [
      'an admin shutdown (57P01) inside TypeORM',
      queryFailed({ code: '57P01', message: 'terminating connection' }),
    ],
    [
      'a server starting up (57P03)',
      queryFailed({ code: '57P03', message: 'the database system is starting up' }),
    ],
    ['a statement timeout (57014)', queryFailed({ code: '57014', message: 'canceling statement' })],
    ['too many connections (53300)', queryFailed({ code: '53300', message: 'too many clients' })],
  ])('is true for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', queryFailed({ code: '23505', message: 'duplicate key' })],
    ['a syntax error (42601)', queryFailed({ code: '42601', message: 'syntax error' })],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'uuid')")],
    ['nothing', undefined],
  ])('is false for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
