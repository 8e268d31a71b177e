/**
 * What the real API server saw, from its audit log (level Metadata, one JSON line per request at
 * ResponseComplete): who asked for what and which code they got. It stands in for the test cluster's
 * request counters on the real server — forbidden responses of the controller, its writes while idle.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { stringify } from 'yaml';

/** One audited request. */
export interface AuditedRequest {
  readonly user: string;
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly code: number;
  readonly uri: string;
  /** RFC 3339 with microseconds, when the server received it. */
  readonly at: string;
}

export interface AuditFilter {
  readonly user?: string | RegExp;
  readonly verb?: string | readonly string[];
  readonly resource?: string;
  readonly code?: number;
}

/** Writes the audit policy: every request at Metadata level, once, when the response is complete. */
export function writeAuditPolicy(file: string): void {
  writeFileSync(
    file,
    stringify({
      apiVersion: 'audit.k8s.io/v1',
      kind: 'Policy',
      omitStages: ['RequestReceived', 'ResponseStarted', 'Panic'],
      rules: [{ level: 'Metadata' }],
    }),
  );
}

interface AuditEvent {
  user?: { username?: string };
  verb?: string;
  requestURI?: string;
  objectRef?: {
    apiGroup?: string;
    resource?: string;
    subresource?: string;
    namespace?: string;
    name?: string;
  };
  responseStatus?: { code?: number };
  requestReceivedTimestamp?: string;
}

const matches = (value: string, want: string | RegExp | undefined): boolean =>
  want === undefined || (typeof want === 'string' ? value === want : want.test(value));

/** Reads the audit log written so far (the server writes each event before it answers). */
export class AuditLog {
  constructor(readonly file: string) {}

  requests(filter: AuditFilter = {}): AuditedRequest[] {
    let text = '';
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return [];
    }
    const verbs = typeof filter.verb === 'string' ? [filter.verb] : filter.verb;
    const out: AuditedRequest[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      let event: AuditEvent;
      try {
        event = JSON.parse(line) as AuditEvent;
      } catch {
        continue; // a line being written right now
      }
      const request: AuditedRequest = {
        user: event.user?.username ?? '',
        verb: event.verb ?? '',
        group: event.objectRef?.apiGroup ?? '',
        resource: event.objectRef?.resource ?? '',
        ...(event.objectRef?.subresource ? { subresource: event.objectRef.subresource } : {}),
        ...(event.objectRef?.namespace ? { namespace: event.objectRef.namespace } : {}),
        ...(event.objectRef?.name ? { name: event.objectRef.name } : {}),
        code: event.responseStatus?.code ?? 0,
        uri: event.requestURI ?? '',
        at: event.requestReceivedTimestamp ?? '',
      };
      if (!matches(request.user, filter.user)) continue;
      if (verbs && !verbs.includes(request.verb)) continue;
      if (filter.resource !== undefined && request.resource !== filter.resource) continue;
      if (filter.code !== undefined && request.code !== filter.code) continue;
      out.push(request);
    }
    return out;
  }
}
