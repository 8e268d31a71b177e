/**
 * What the simulated `jmp run` reads at start: the exporter config Secret the Pod mounts (INTEROP §3,
 * key `config.yaml`). The kubelet simulator passes the token and endpoint to the Jumpstarter
 * simulator, which rejects a stale token or a wrong endpoint as the real controller would, and
 * `exitOnLeaseEnd` decides whether the process exits when its lease ends.
 *
 * `jmp run` treats an absent `exitOnLeaseEnd` as false; a Pod that mounts no exporter config (a
 * hand-made test Pod) gets the kubelet simulator's `defaultExitOnLeaseEnd`.
 */
import { parse } from 'yaml';
import type { ExporterDevice } from 'virtual-exporters/internal';
import { secretValue } from '../jumpstarter/credentials';
import type { KubeObject } from '../types';

export const CONFIG_KEY = 'config.yaml';
/** The Pod volume holding the exporter config (INTEROP §4). */
export const CONFIG_VOLUME = 'exporter-config';

export interface ExporterRunConfig {
  readonly token?: string;
  readonly endpoint?: string;
  readonly exitOnLeaseEnd: boolean;
  /** One device per entry of `export`, as the exporter reports its drivers. */
  readonly devices: readonly ExporterDevice[];
}

interface Volume {
  name: string;
  secret?: { secretName?: string; optional?: boolean };
}

/** The Secret the Pod mounts as its exporter config: volume `exporter-config`, else a Secret named `exporter-config-*`. */
export function configSecretName(pod: KubeObject): string | undefined {
  const volumes = ((pod.spec as { volumes?: Volume[] } | undefined)?.volumes ?? []).filter(
    (v) => v.secret?.secretName,
  );
  const named =
    volumes.find((v) => v.name === CONFIG_VOLUME) ??
    volumes.find((v) => v.secret?.secretName?.startsWith('exporter-config-'));
  return named?.secret?.secretName;
}

/**
 * Reads the config from its Secret. Throws with a `jmp`-like message when the key is missing or the
 * YAML is not an ExporterConfig: the process then fails at start.
 */
export function readExporterConfig(secret: KubeObject): ExporterRunConfig {
  const text = secretValue(secret, CONFIG_KEY);
  if (text === undefined)
    throw new Error(`exporter config: Secret ${secret.metadata.name} has no key ${CONFIG_KEY}`);
  let config: unknown;
  try {
    config = parse(text);
  } catch (error) {
    throw new Error(`exporter config: invalid YAML: ${(error as Error).message}`);
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new Error('exporter config: expected a mapping (an ExporterConfig)');
  }
  const { token, endpoint, exitOnLeaseEnd, export: exported } = config as Record<string, unknown>;
  const drivers = typeof exported === 'object' && exported !== null ? Object.keys(exported) : [];
  return {
    ...(typeof token === 'string' ? { token } : {}),
    ...(typeof endpoint === 'string' ? { endpoint } : {}),
    exitOnLeaseEnd: exitOnLeaseEnd === true,
    devices: drivers.map((name, index) => ({
      uuid: `device-${index}`,
      labels: { 'jumpstarter.dev/name': name },
    })),
  };
}
