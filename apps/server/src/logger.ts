export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

/**
 * One line per event: `time level message key=value…`, readable in a terminal and easy to grep.
 * Callers never pass tokens or keys (CONTRACT §8: no log line carries a token).
 */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Logger {
  const log =
    (at: Exclude<LogLevel, 'silent'>) =>
    (message: string, fields: Record<string, unknown> = {}) => {
      if (RANK[at] < RANK[level]) return;
      const extra = Object.entries(fields)
        .map(
          ([key, value]) =>
            `${key}=${typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value)}`,
        )
        .join(' ');
      write(
        `${new Date().toISOString()} ${at.toUpperCase().padEnd(5)} ${message}${extra ? ` ${extra}` : ''}`,
      );
    };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

export const silentLogger: Logger = createLogger('silent');
