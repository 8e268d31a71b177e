/**
 * JSON-lines logging (SPEC §3): pino, one object per line, with `exporterset`, `exporter` and `lease`
 * fields so a pool's story can be filtered out of the controller's log.
 *
 * Nothing secret may reach a log line. The controller handles exporter tokens (JWTs in credential
 * Secrets and in the rendered `config.yaml`) and its own bearer token, and errors from the client
 * library carry request and response details. So every logged object is redacted before it is
 * written, at any depth, by key (`SENSITIVE_KEYS`: any key ending in `token`, passwords,
 * authorization headers, key material, `config.yaml`), by shape (the `data`/`stringData` of anything
 * whose `kind` is `Secret`) and by value (JWTs and `Bearer` credentials inside any string, the
 * message included).
 */
import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const REDACTED = '[REDACTED]';

/**
 * Keys whose values are never logged, compared without case and punctuation (`client-key-data`
 * matches `clientKeyData`). Besides these, every key ending in `token` is redacted.
 */
export const SENSITIVE_KEYS: readonly string[] = [
  'password',
  'passwd',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'client-key-data',
  'client-key',
  'private-key',
  'api-key',
  'secret-key',
  'config.yaml',
];

const normalize = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');
const SENSITIVE = new Set(SENSITIVE_KEYS.map(normalize));
const isSensitiveKey = (key: string) => {
  const normalized = normalize(key);
  return normalized.endsWith('token') || SENSITIVE.has(normalized);
};

/** JWTs (exporter tokens, service-account tokens) and bearer credentials inside free text. */
const JWT = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]+/gi;

function scrub(text: string): string {
  return text.replace(JWT, REDACTED).replace(BEARER, `$1 ${REDACTED}`);
}

const MAX_DEPTH = 12;

/** A copy of `value` with every secret replaced by `[REDACTED]` (errors become plain objects). */
export function redact(value: unknown): unknown {
  return redactValue(value, new WeakSet(), 0);
}

function redactValue(value: unknown, seen: WeakSet<object>, depth: number): unknown {
  if (typeof value === 'string') return scrub(value);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactValue(item, seen, depth + 1));
    if (value instanceof Date) return value;
    const source: Record<string, unknown> =
      value instanceof Error
        ? (pino.stdSerializers.err(value) as unknown as Record<string, unknown>)
        : { ...value };
    const isSecret = source.kind === 'Secret';
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(source)) {
      copy[key] =
        isSensitiveKey(key) || (isSecret && (key === 'data' || key === 'stringData'))
          ? REDACTED
          : redactValue(item, seen, depth + 1);
    }
    return copy;
  } finally {
    seen.delete(value);
  }
}

export interface LoggerOptions {
  /** `--log-level`. @default 'info' */
  readonly level?: LogLevel;
  /** Where lines go. @default stdout */
  readonly destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const logger = pino(
    {
      level: options.level ?? 'info',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        bindings: (bindings) => redact(bindings) as Record<string, unknown>,
        log: (object) => redact(object) as Record<string, unknown>,
      },
      serializers: {
        // Errors were serialized and redacted by the log formatter already; keep its `type`.
        err: (value: unknown) => (value instanceof Error ? redact(value) : value),
        msg: (message: unknown) => (typeof message === 'string' ? scrub(message) : message),
      },
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
  // pino does not format the bindings of children; redact them on the way in. Children inherit this
  // method from the root, and `this` is the logger the child is made from.
  type Child = (this: unknown, bindings: pino.Bindings, options?: pino.ChildLoggerOptions) => Logger;
  const child = logger.child as unknown as Child;
  logger.child = function (this: unknown, bindings: pino.Bindings, childOptions?: pino.ChildLoggerOptions) {
    return child.call(this, redact(bindings) as pino.Bindings, childOptions);
  } as unknown as Logger['child'];
  return logger;
}

/** A logger whose lines carry the set: `namespace` and `exporterset`. */
export function exporterSetLogger(logger: Logger, set: { namespace: string; name: string }): Logger {
  return logger.child({ namespace: set.namespace, exporterset: set.name });
}

/** A logger whose lines carry the instance: `exporter`. */
export function exporterLogger(logger: Logger, exporter: string): Logger {
  return logger.child({ exporter });
}

/** A logger whose lines carry the Jumpstarter Lease: `lease`. */
export function leaseLogger(logger: Logger, lease: string): Logger {
  return logger.child({ lease });
}
