import { AsyncLocalStorage } from 'node:async_hooks';
import { pino } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * Fields every line logged inside `withLogContext` carries (the request's `reqId`, a socket's
 * `sessionId`), however deep the call: services log as before and need not be handed a child logger.
 */
const context = new AsyncLocalStorage<Record<string, unknown>>();

export function withLogContext<T>(fields: Record<string, unknown>, work: () => T): T {
  return context.run({ ...context.getStore(), ...fields }, work);
}

// Callers never pass secrets (docs/contract.md §8, §12); this is the safety net if one ever does.
const SECRET_KEY = /token|key|password|passwd|secret|signature|authorization|cookie/i;
const TOKEN_IN_TEXT = /\b(rsp|ses|usr)_[A-Za-z0-9_-]{16,}|([?&](?:token|apiKey|key)=)[^&\s"]+/g;
const REDACTED = '[redacted]';

function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    return value.replace(TOKEN_IN_TEXT, (_match, kind?: string, param?: string) =>
      param ? `${param}${REDACTED}` : `${kind}_${REDACTED}`,
    );
  }
  if (typeof value !== 'object' || value === null || depth > 4) return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? REDACTED : redact(item, depth + 1);
  }
  return out;
}

/**
 * JSON lines (docs/contract.md §12): `{"level":"info","time":"…","msg":"…",…fields}`, one object per
 * event, for log collectors. Written synchronously so the last lines before an exit are not lost.
 */
export function createLogger(level: LogLevel, write?: (line: string) => void): Logger {
  const destination = write
    ? { write: (chunk: string) => write(chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk) }
    : pino.destination({ dest: 1, sync: true });
  const base = pino(
    {
      level,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => context.getStore() ?? {},
    },
    destination,
  );
  const log = (at: Exclude<LogLevel, 'silent'>) => (message: string, fields?: Record<string, unknown>) => {
    if (!base.isLevelEnabled(at)) return;
    base[at](fields ? (redact(fields) as Record<string, unknown>) : {}, redact(message) as string);
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

export const silentLogger: Logger = createLogger('silent');
