import { ConfigError } from './config';
import { redactSecrets } from './redact';

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

/** Every value `LOG_LEVEL` accepts. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

/**
 * Reads `LOG_LEVEL` (default `info`). Any other value than {@link LOG_LEVELS} is a `ConfigError`,
 * so that a typo such as `verbose` stops the start-up instead of logging at an unexpected level.
 *
 * @example
 * const level = logLevelFromEnv(); // 'info' when LOG_LEVEL is unset
 */
export function logLevelFromEnv(
  env: Record<string, string | undefined> = process.env,
  variable = 'LOG_LEVEL',
): LogLevel | 'silent' {
  const raw = env[variable];
  if (raw === undefined || raw === '') return 'info';
  const level = raw.trim().toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel | 'silent';
  throw new ConfigError(
    `${variable} must be one of ${LOG_LEVELS.join(', ')}; not ${JSON.stringify(raw)}`,
    [{ key: variable, message: `must be one of ${LOG_LEVELS.join(', ')}` }],
  );
}

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
    return new JsonLinesLogger(
      { ...this.base, ...(redactSecrets(fields) as Record<string, unknown>) },
      this.threshold,
      this.write,
    );
  }

  private emit(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
    const record: Record<string, unknown> = {
      time: new Date().toISOString(),
      level,
      ...this.base,
      msg,
    };
    if (fields) Object.assign(record, redactSecrets(fields));
    this.write(JSON.stringify(record));
  }
}

/**
 * Creates a JSON-lines logger. The level comes from `LOG_LEVEL` (default `info`; an unknown value
 * throws a `ConfigError`); `silent` writes nothing. Secrets in logged fields are redacted (see
 * `redactSecrets`).
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
  const level = options.level ?? logLevelFromEnv();
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  return new JsonLinesLogger(
    { name, ...(redactSecrets(options.fields ?? {}) as Record<string, unknown>) },
    level === 'silent' ? Number.POSITIVE_INFINITY : ORDER[level],
    write,
  );
}
