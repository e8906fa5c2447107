import { Writable } from 'node:stream';
import { createLogger, NestJsonLogger, withOrderContext } from './json-logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger('order-service', 'info', sink) };
}

describe('JSON logger', () => {
  it('writes one JSON line with the app name, the level label and the message', () => {
    const { lines, logger } = capture();
    logger.info({ subject: 'x' }, 'hello');
    expect(lines).toEqual([
      expect.objectContaining({ app: 'order-service', level: 'info', msg: 'hello', subject: 'x' }),
    ]);
    expect(lines[0]).not.toHaveProperty('orderUuid');
  });

  it('adds the order uuid to every line written inside withOrderContext, across awaits', async () => {
    const { lines, logger } = capture();
    await withOrderContext('2f9c6a1e-8b1d-4c1e-9a51-3b6f0f1d2e77', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.warn('inside');
    });
    logger.info('outside');
    expect(lines.map((line) => line.orderUuid)).toEqual(['2f9c6a1e-8b1d-4c1e-9a51-3b6f0f1d2e77', undefined]);
  });

  it('routes Nest log calls with their context into the same lines', () => {
    const { lines, logger } = capture();
    new NestJsonLogger(logger).log('Nest application successfully started', 'NestApplication');
    expect(lines[0]).toMatchObject({
      msg: 'Nest application successfully started',
      context: 'NestApplication',
      app: 'order-service',
    });
  });
});
