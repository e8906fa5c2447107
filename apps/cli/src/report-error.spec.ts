import { CliError } from './cli-error';
import { EXIT } from './exit-codes';
import { reportError } from './report-error';

describe('errors and exit codes', () => {
  let written: string[];
  let spy: jest.SpyInstance;
  beforeEach(() => {
    written = [];
    spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  });
  afterEach(() => spy.mockRestore());

  it('exits with the code of the failure, the message on stderr', () => {
    expect(reportError(CliError.usage('--request: not valid JSON'), false)).toBe(EXIT.usage);
    expect(reportError(new CliError('marketplace order o-1 erred: boom', EXIT.orderFailed), false)).toBe(5);
    expect(reportError(new CliError('timed out', EXIT.timeout), false)).toBe(6);
    expect(written).toEqual([
      'waldur-cli: --request: not valid JSON\n',
      'waldur-cli: marketplace order o-1 erred: boom\n',
      'waldur-cli: timed out\n',
    ]);
  });

  it('writes {"error": ...} with the API answer under --format json', () => {
    const refused = new CliError('400: project: Invalid hyperlink', EXIT.refused, {
      project: ['Invalid hyperlink'],
    });
    expect(reportError(refused, true)).toBe(3);
    expect(JSON.parse(written[0])).toEqual({
      error: '400: project: Invalid hyperlink',
      details: { project: ['Invalid hyperlink'] },
    });
  });

  it('calls anything else an unexpected failure (exit 1)', () => {
    expect(reportError(new TypeError('x is undefined'), true)).toBe(EXIT.failure);
    expect((JSON.parse(written[0]) as { error: string }).error).toMatch(
      /^unexpected failure: TypeError: x is undefined/,
    );
  });

  it('keeps the documented codes distinct', () => {
    const codes = Object.values(EXIT);
    expect(new Set(codes).size).toBe(codes.length);
  });
});
