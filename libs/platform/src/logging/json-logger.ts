import { AsyncLocalStorage } from 'node:async_hooks';
import type { LoggerService } from '@nestjs/common';
import pino from 'pino';

interface LogContext {
  orderUuid?: string;
}

const context = new AsyncLocalStorage<LogContext>();

/** Runs `work` with the order's uuid attached to every log line written inside it. */
export function withOrderContext<T>(orderUuid: string, work: () => T): T {
  return context.run({ orderUuid }, work);
}

export type Logger = pino.Logger;

/** One JSON line per record on stdout, carrying the app's name and, inside `withOrderContext`, the order's uuid. */
export function createLogger(app: string, level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { app },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const orderUuid = context.getStore()?.orderUuid;
        return orderUuid ? { orderUuid } : {};
      },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/** Routes Nest's own log calls into the same JSON lines. */
export class NestJsonLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...optional: unknown[]): void {
    this.write('info', message, optional);
  }
  error(message: unknown, ...optional: unknown[]): void {
    this.write('error', message, optional);
  }
  warn(message: unknown, ...optional: unknown[]): void {
    this.write('warn', message, optional);
  }
  debug(message: unknown, ...optional: unknown[]): void {
    this.write('debug', message, optional);
  }
  verbose(message: unknown, ...optional: unknown[]): void {
    this.write('trace', message, optional);
  }
  fatal(message: unknown, ...optional: unknown[]): void {
    this.write('fatal', message, optional);
  }

  private write(level: pino.Level, message: unknown, optional: unknown[]): void {
    // Nest passes the context (class name) last, and an error's stack before it.
    const strings = optional.filter((item): item is string => typeof item === 'string');
    const nestContext = strings.length > 0 ? strings[strings.length - 1] : undefined;
    const stack = strings.length > 1 ? strings[0] : undefined;
    const fields: Record<string, unknown> = { context: nestContext };
    if (stack) fields.stack = stack;
    if (message instanceof Error) this.logger[level]({ ...fields, err: message }, message.message);
    else if (typeof message === 'string') this.logger[level](fields, message);
    else this.logger[level]({ ...fields, detail: message }, 'log');
  }
}
