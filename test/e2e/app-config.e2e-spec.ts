import { AppProcess, type AppName } from '../support/app-process';

jest.setTimeout(60_000);

describe('configuration is validated once at start', () => {
  it.each<[AppName, Record<string, string>, string]>([
    [
      'order-service',
      { DATABASE_URL: 'mysql://root:s3cr3t-pw@localhost/x' },
      'DATABASE_URL ("mysql://***@localhost/x"): must be a postgres:// URL',
    ],
    ['vsphere-adapter', { ORDER_CONCURRENCY: 'many' }, 'ORDER_CONCURRENCY ("many"): must be a whole number'],
    [
      'sync-scheduler',
      { NATS_URL: 'http://127.0.0.1:4222' },
      'NATS_URL ("http://127.0.0.1:4222"): must be a nats:// URL, or several separated by commas',
    ],
    ['gateway', { GATEWAY_PORT: '99999' }, 'GATEWAY_PORT ("99999"): must be between 0 and 65535'],
    ['gateway', { NATS_PASSWORD: 's3cr3t-pw' }, 'NATS_PASSWORD (set, value hidden): needs NATS_USER'],
  ])('%s stops with exit code 1 and a log line naming the bad variable', async (app, env, problem) => {
    const process = new AppProcess(app, env);
    await expect(process.start()).rejects.toThrow(/exited with 1/);
    const fatal = process.lines.find((line) => line.level === 'fatal');
    expect(fatal).toMatchObject({ app, problems: [problem] });
    // Not in the problem, not in the message, not anywhere else the process wrote.
    expect(JSON.stringify(process.lines)).not.toContain('s3cr3t-pw');
  });
});
