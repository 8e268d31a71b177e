/**
 * JSON-lines logs with the set/exporter/lease fields, the level knob, and redaction: no token,
 * password, authorization header, Secret payload or JWT reaches a line, at any depth, in bindings,
 * in errors or in the message itself.
 */
import { describe, expect, it } from '@jest/globals';
import {
  createLogger,
  exporterLogger,
  exporterSetLogger,
  leaseLogger,
  redact,
  REDACTED,
  type LogLevel,
} from '../../src/process/logger';

/** A JWT-shaped exporter token. */
const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJwb29sLTAifQ.c2lnbmF0dXJl';

function capture(level: LogLevel = 'info') {
  const lines: string[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, any>) };
}

describe('logger › lines', () => {
  it('writes one JSON object per line with level, time, message and the pool fields', () => {
    const { logger, lines, records } = capture();
    const setLog = exporterSetLogger(logger, { namespace: 'lab', name: 'pool' });
    exporterLogger(setLog, 'pool-3').info({ action: 'create' }, 'creating instance');
    leaseLogger(setLog, 'lease-7').warn('lease waits');
    expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
    const [created, waiting] = records();
    expect(created).toMatchObject({
      level: 'info',
      namespace: 'lab',
      exporterset: 'pool',
      exporter: 'pool-3',
      action: 'create',
      msg: 'creating instance',
    });
    expect(Number.isNaN(Date.parse(created.time))).toBe(false);
    expect(waiting).toMatchObject({
      level: 'warn',
      exporterset: 'pool',
      lease: 'lease-7',
      msg: 'lease waits',
    });
  });

  it('honours --log-level', () => {
    const { logger, records } = capture('warn');
    logger.info('hidden');
    logger.debug('hidden too');
    logger.error('shown');
    expect(records().map((r) => r.msg)).toEqual(['shown']);
  });
});

describe('logger › redaction', () => {
  it('never writes tokens, passwords, auth headers, Secret payloads or JWTs', () => {
    const { logger, lines, records } = capture();
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'pool-0-exporter' },
      data: { token: Buffer.from(JWT).toString('base64') },
      stringData: { token: JWT },
    };
    logger.child({ bearerToken: 'child-secret' }).info(
      {
        secret,
        token: 'plain-token-value',
        user: { name: 'controller', password: 'hunter2', 'client-key-data': 'LS0tLS1CRUdJTi' },
        request: { headers: { Authorization: 'Bearer abc.def-123', 'X-Auth-Token': 'header-secret' } },
        config: { 'config.yaml': `token: ${JWT}\n` },
        note: `the exporter sent ${JWT} back`,
        nested: [{ deeper: { refresh_token: 'refresh-secret' } }],
      },
      `credential %s rotated`,
      JWT,
    );
    const line = lines.join('');
    for (const leaked of [
      'child-secret',
      'plain-token-value',
      'hunter2',
      'LS0tLS1CRUdJTi',
      'abc.def-123',
      'header-secret',
      'refresh-secret',
      JWT,
      Buffer.from(JWT).toString('base64'),
    ]) {
      expect(line).not.toContain(leaked);
    }
    const [record] = records();
    expect(record.bearerToken).toBe(REDACTED);
    expect(record.secret).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'pool-0-exporter' }, // names stay readable
      data: REDACTED,
      stringData: REDACTED,
    });
    expect(record.user).toEqual({ name: 'controller', password: REDACTED, 'client-key-data': REDACTED });
    expect(record.request.headers).toEqual({ Authorization: REDACTED, 'X-Auth-Token': REDACTED });
    expect(record.note).toBe(`the exporter sent ${REDACTED} back`);
    expect(record.msg).toBe(`credential ${REDACTED} rotated`);
  });

  it('redacts inside logged errors and keeps their message and stack', () => {
    const { logger, lines, records } = capture();
    const error = Object.assign(new Error(`request failed with Bearer ${JWT}`), {
      code: 401,
      body: { token: 'in-the-body' },
    });
    logger.error({ err: error }, 'API call failed');
    logger.error(error);
    expect(lines.join('')).not.toContain(JWT);
    expect(lines.join('')).not.toContain('in-the-body');
    const [first, second] = records();
    expect(first.err).toMatchObject({
      type: 'Error',
      message: `request failed with Bearer ${REDACTED}`,
      code: 401,
    });
    expect(first.err.body).toEqual({ token: REDACTED });
    expect(first.err.stack).toContain('logger.test.ts');
    expect(second.msg).toBe(`request failed with Bearer ${REDACTED}`);
  });

  it('copes with cycles and leaves the input untouched', () => {
    const input: Record<string, unknown> = { name: 'pool', token: 'x' };
    input.self = input;
    expect(redact(input)).toEqual({ name: 'pool', token: REDACTED, self: '[Circular]' });
    expect(input.token).toBe('x');
  });
});
