import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@app/platform';

export interface CapturedLogger {
  logger: Logger;
  lines: Record<string, unknown>[];
}

/** A real JSON logger whose lines are kept for assertions instead of written to stdout. */
export function captureLogger(app: string): CapturedLogger {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger(app, 'debug', sink), lines };
}
