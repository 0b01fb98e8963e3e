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
  const base = { name, ...options.fields };
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (level === 'silent' || ORDER[lvl] < ORDER[level]) return;
    const record: Record<string, unknown> = {
      time: new Date().toISOString(),
      level: lvl,
      ...base,
      msg,
    };
    if (fields) {
      for (const [key, value] of Object.entries(fields)) {
        record[key] =
          value instanceof Error ? { message: value.message, stack: value.stack } : value;
      }
    }
    write(JSON.stringify(record));
  };
  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    child: (fields) =>
      createLogger(name, { level, write, fields: { ...options.fields, ...fields } }),
  };
}
