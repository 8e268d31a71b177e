import type { JsonObject } from './meta';

/** One entry of the `export` map: a driver by class, or a reference to a nested child driver. */
export type ExportEntry = { readonly type: string; readonly config?: JsonObject } | { readonly ref: string };

/** What `jmp run --exporter-config` reads; stored as `config.yaml` in a Secret per instance. */
export interface ExporterConfig {
  readonly apiVersion: string;
  readonly kind: 'ExporterConfig';
  readonly metadata: { readonly name: string; readonly namespace: string };
  readonly endpoint: string;
  readonly tls: { readonly ca: string; readonly insecure?: boolean };
  readonly token: string;
  readonly export: Readonly<Record<string, ExportEntry>>;
  readonly exitOnLeaseEnd: boolean;
}
