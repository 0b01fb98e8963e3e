/** Severity of a log line. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A structured logger that writes one JSON object per line. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * One JSON object per line. A class rather than closures: a child logger per request (request
 * ids) then costs one small object.
 */
class JsonLinesLogger implements Logger {
  constructor(
    private readonly base: Readonly<Record<string, unknown>>,
    private readonly threshold: number,
    private readonly write: (line: string) => void,
  ) {}

  debug(msg: string, fields?: Record<string, unknown>): void {
    if (ORDER.debug >= this.threshold) this.emit('debug', msg, fields);
  }

  info(msg: string, fields?: Record<string, unknown>): void {
    if (ORDER.info >= this.threshold) this.emit('info', msg, fields);
  }

  warn(msg: string, fields?: Record<string, unknown>): void {
    if (ORDER.warn >= this.threshold) this.emit('warn', msg, fields);
  }

  error(msg: string, fields?: Record<string, unknown>): void {
    if (ORDER.error >= this.threshold) this.emit('error', msg, fields);
  }

  child(fields: Record<string, unknown>): Logger {
    return new JsonLinesLogger({ ...this.base, ...fields }, this.threshold, this.write);
  }

  private emit(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
    const record: Record<string, unknown> = {
      time: new Date().toISOString(),
      level,
      ...this.base,
      msg,
    };
    if (fields) {
      for (const [key, value] of Object.entries(fields)) {
        record[key] =
          value instanceof Error ? { message: value.message, stack: value.stack } : value;
      }
    }
    this.write(JSON.stringify(record));
  }
}

/**
 * Creates a JSON-lines logger. The level comes from `LOG_LEVEL` (default `info`); `silent` writes nothing.
 *
 * @example
 * const log = createLogger('kg-api');
 * log.info('listening', { url });
 */
export function createLogger(
  name: string,
  options: {
    level?: LogLevel | 'silent';
    write?: (line: string) => void;
    fields?: Record<string, unknown>;
  } = {},
): Logger {
  const level =
    options.level ?? ((process.env.LOG_LEVEL as LogLevel | 'silent' | undefined) || 'info');
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  return new JsonLinesLogger(
    { name, ...options.fields },
    level === 'silent' ? Number.POSITIVE_INFINITY : ORDER[level],
    write,
  );
}
