import { Document, Scalar, visit } from 'yaml';
import {
  JUMPSTARTER_API_VERSION,
  Kinds,
  RuleMessages,
  type DriverConfig,
  type ExportEntry,
  type ExporterConfig,
  type JsonObject,
  type JsonValue,
  type RecycleStrategy,
} from '../../api';
import { assertNestingWithin, MAX_USER_DATA_DEPTH, nestingDepth, nestingMessage } from '../../core/depth';
import { deriveDriverName } from '../../core/drivers';
import type { ValidationIssue } from '../../core/issue';
import { tryParseQuantity } from '../../core/quantity';
import { DEFAULT_TCP_DRIVER_NAME, QEMU_DRIVER_TYPE, SSH_FORWARD, TCP_NETWORK_DRIVER_TYPE } from './constants';
import { isQemuArch } from './parameters';
import { isPlainObject } from '../../core/plain-object';
import { toQemuSize } from './sizes';
import {
  TEMPLATE_DRIVERS_PATH,
  driverEntries,
  driverNamePath,
  isTcpNetworkDriver,
  tcpDriverCollisions,
} from './tcp-driver';
import { isWholeCores } from './validate';

/** UEFI firmware in the runtime image, keyed by the QEMU driver's partition names. */
export const DEFAULT_PARTITIONS = {
  aarch64: {
    'OVMF_CODE.fd': '/usr/share/AAVMF/AAVMF_CODE.fd',
    'OVMF_VARS.fd': '/usr/share/AAVMF/AAVMF_VARS.fd',
  },
  other: {
    'OVMF_CODE.fd': '/usr/share/edk2/ovmf/OVMF_CODE.fd',
    'OVMF_VARS.fd': '/usr/share/edk2/ovmf/OVMF_VARS.fd',
  },
} as const;

/** The driver's `default_partitions` for a guest arch: AAVMF for aarch64, OVMF for anything else. */
export function defaultPartitionsFor(arch: unknown): JsonObject {
  return { ...(arch === 'aarch64' ? DEFAULT_PARTITIONS.aarch64 : DEFAULT_PARTITIONS.other) };
}

export interface ExporterConfigInput {
  /** The Exporter's name and namespace. */
  readonly name: string;
  readonly namespace: string;
  /** `Exporter.status.endpoint`. */
  readonly endpoint: string;
  /** The token from the Exporter's credential Secret. */
  readonly token: string;
  /** PEM text of the CA bundle; `tls.ca` is empty without one. */
  readonly caBundle?: string;
  /** The set's template drivers. */
  readonly drivers?: readonly DriverConfig[];
  /** Merged parameters (class deep-merged with set). */
  readonly parameters?: unknown;
  /** @default "ExitAndReplace" */
  readonly recycleStrategy?: RecycleStrategy;
  /**
   * The provisioner's driver defaults and the driver it adds.
   * @default the QEMU profile (QEMU driver defaults, a `tcp` TcpNetwork driver for guest SSH)
   */
  readonly profile?: ExportProfile;
}

/** A driver a provisioner adds to `export` when the template has none that does its job. */
export interface ImplicitDriver {
  readonly name: string;
  readonly type: string;
  /** True for a template driver that makes the added one unnecessary. */
  isSatisfiedBy(driver: DriverConfig): boolean;
  config(input: ExporterConfigInput): JsonObject;
  /** Template drivers that would take the added driver's name; paths relative to the ExporterSet. */
  collisions(drivers: unknown): ValidationIssue[];
}

/** How a provisioner shapes the `export` map beyond the template's drivers. */
export interface ExportProfile {
  /** The config of a template driver with the provisioner's defaults, or undefined to keep it as it is. */
  withDefaults(
    type: string,
    config: JsonObject | undefined,
    input: ExporterConfigInput,
  ): JsonObject | undefined;
  readonly implicitDriver?: ImplicitDriver;
}

/** `qemu.jumpstarter.dev`: QEMU drivers get {@link withQemuDefaults}; a `tcp` TcpNetwork driver is added. */
export const QEMU_EXPORT_PROFILE: ExportProfile = {
  withDefaults: (type, config, input) =>
    type === QEMU_DRIVER_TYPE ? withQemuDefaults(config ?? {}, input.parameters) : undefined,
  implicitDriver: {
    name: DEFAULT_TCP_DRIVER_NAME,
    type: TCP_NETWORK_DRIVER_TYPE,
    isSatisfiedBy: isTcpNetworkDriver,
    config: () => ({ host: SSH_FORWARD.hostaddr, port: SSH_FORWARD.hostport }),
    collisions: tcpDriverCollisions,
  },
};

/**
 * The ExporterConfig `jmp run` reads. Driver entries keep the template's order; a
 * missing name is derived from the driver package; `ref` entries become `{ref}`. QEMU drivers get the
 * provisioner defaults (see {@link withQemuDefaults}); without a TcpNetwork driver a `tcp` one is added
 * last (other provisioners pass their own `profile`). Problems (duplicate names, a user `tcp` in the
 * way, malformed entries) are returned as issues
 * with paths relative to the ExporterSet; the config is still built from the entries that are usable.
 */
export function buildExporterConfig(input: ExporterConfigInput): {
  config: ExporterConfig;
  issues: ValidationIssue[];
} {
  const issues: ValidationIssue[] = [];
  const exported: Record<string, ExportEntry> = {};
  const entries = driverEntries(input.drivers);
  const profile = input.profile ?? QEMU_EXPORT_PROFILE;

  if (input.drivers !== undefined && !Array.isArray(input.drivers)) {
    issues.push({ path: TEMPLATE_DRIVERS_PATH, value: input.drivers, message: 'drivers must be a list' });
  } else {
    (input.drivers ?? []).forEach((d, index) => {
      if (!isPlainObject(d)) {
        issues.push({
          path: `${TEMPLATE_DRIVERS_PATH}[${index}]`,
          value: d,
          message: 'driver must be an object',
        });
      }
    });
  }

  for (const { index, driver } of entries) {
    const problem = entryProblem(driver);
    if (problem) {
      const path = `${TEMPLATE_DRIVERS_PATH}[${index}]${problem.field}`;
      issues.push(
        'value' in problem
          ? { path, value: problem.value, message: problem.message }
          : { path, message: problem.message },
      );
      continue;
    }
    const name = deriveDriverName(driver) as string;
    if (Object.hasOwn(exported, name)) {
      issues.push({
        path: driverNamePath(index, driver),
        value: name,
        message: RuleMessages.driverNamesUnique,
      });
      continue;
    }
    defineKey(exported, name, exportEntry(driver, input, profile));
  }

  const implicit = profile.implicitDriver;
  if (implicit) {
    const collisions = implicit.collisions(input.drivers);
    issues.push(...collisions);
    if (!entries.some(({ driver }) => implicit.isSatisfiedBy(driver)) && collisions.length === 0) {
      defineKey(exported, implicit.name, { type: implicit.type, config: implicit.config(input) });
    }
  }

  const config: ExporterConfig = {
    apiVersion: JUMPSTARTER_API_VERSION,
    kind: Kinds.ExporterConfig,
    metadata: { name: input.name, namespace: input.namespace },
    endpoint: input.endpoint,
    tls: { ca: input.caBundle ? Buffer.from(input.caBundle, 'utf8').toString('base64') : '' },
    token: input.token,
    export: exported,
    exitOnLeaseEnd: input.recycleStrategy !== 'InPlaceReuse',
  };
  return { config, issues };
}

/** The first admission-rule violation of one driver entry (the CRD rejects these; guard anyway). */
function entryProblem(driver: DriverConfig): { field: string; value?: unknown; message: string } | undefined {
  const hasType = typeof driver.type === 'string' && driver.type.length > 0;
  const hasRef = typeof driver.ref === 'string' && driver.ref.length > 0;
  if (driver.name !== undefined && (typeof driver.name !== 'string' || driver.name.length === 0)) {
    return { field: '.name', value: driver.name, message: RuleMessages.driverNameNotEmpty };
  }
  if (hasType && hasRef) return { field: '', value: driver, message: RuleMessages.driverTypeRefExclusive };
  if (!hasType && !hasRef) return { field: '', value: driver, message: RuleMessages.driverTypeOrRef };
  if (hasRef && driver.config !== undefined) {
    return { field: '.config', value: driver.config, message: RuleMessages.driverRefNoConfig };
  }
  if (driver.config !== undefined && !isPlainObject(driver.config)) {
    return { field: '.config', value: driver.config, message: 'config must be an object' };
  }
  // No value: it may be huge, and describing it would walk it.
  if (nestingDepth(driver.config, MAX_USER_DATA_DEPTH) > MAX_USER_DATA_DEPTH) {
    return { field: '.config', message: nestingMessage(MAX_USER_DATA_DEPTH) };
  }
  return undefined;
}

/** One `export` entry; the driver has passed {@link entryProblem}, so it has exactly one of type/ref. */
function exportEntry(driver: DriverConfig, input: ExporterConfigInput, profile: ExportProfile): ExportEntry {
  if (typeof driver.type !== 'string' || driver.type.length === 0) return { ref: String(driver.ref) };
  const config = isPlainObject(driver.config) ? (clone(driver.config) as JsonObject) : undefined;
  const filled = profile.withDefaults(driver.type, config, input);
  if (filled !== undefined) return { type: driver.type, config: filled };
  return config === undefined ? { type: driver.type } : { type: driver.type, config };
}

/**
 * The provisioner's defaults for a `jumpstarter_driver_qemu.driver.Qemu` driver. No `launcher_socket` is
 * written: Jumpstarter's Qemu driver (jumpstarter-driver-qemu 0.9.0) has no such argument and refuses the
 * whole config (TypeError) with it; the launcher socket reaches the exporter as the environment variable
 * JUMPSTARTER_LAUNCHER_SOCKET (Pod and quadlet unit), and a user's own `launcher_socket` is kept for a
 * driver that takes one. Every key is only filled when the user's config does not have it, so user
 * values win: `arch` ← parameters.arch (only when that parameter is
 * given; the driver otherwise uses its own host's arch), `smp` ← resources.cpu (a number),
 * `mem` / `disk_size` ← resources.memory / .storage as QEMU sizes (`16Gi` → `16G`, see toQemuSize),
 * `default_partitions` ← the UEFI firmware of the effective arch (the whole map, only when the config
 * has none), `hostfwd.ssh` ← guest port 22 on 127.0.0.1:2222 (only when `hostfwd` has no `ssh`).
 * Invalid parameters are skipped here; validation reports them.
 */
export function withQemuDefaults(config: JsonObject, parameters: unknown): JsonObject {
  const params = isPlainObject(parameters) ? parameters : {};
  const resources = isPlainObject(params.resources) ? params.resources : {};
  const out: JsonObject = { ...config };
  const setDefault = (key: string, value: JsonValue | undefined) => {
    if (!Object.hasOwn(out, key) && value !== undefined) out[key] = value;
  };

  setDefault('arch', isQemuArch(params.arch) ? params.arch : undefined);
  setDefault(
    'smp',
    isWholeCores(resources.cpu) ? Math.round(tryParseQuantity(resources.cpu)!.value) : undefined,
  );
  setDefault('mem', toQemuSize(resources.memory));
  setDefault('disk_size', toQemuSize(resources.storage));
  setDefault('default_partitions', defaultPartitionsFor(out.arch));

  const hostfwd = out.hostfwd;
  if (hostfwd === undefined) {
    out.hostfwd = { ssh: { ...SSH_FORWARD } };
  } else if (isPlainObject(hostfwd) && !Object.hasOwn(hostfwd, 'ssh')) {
    out.hostfwd = { ...hostfwd, ssh: { ...SSH_FORWARD } };
  }
  return out;
}

/** The YAML 1.1 merge tag; `yaml` writes a `<<` string with it, i.e. plain. */
const MERGE_TAG = 'tag:yaml.org,2002:merge';

/**
 * Strings that a YAML 1.1 loader (PyYAML, which `jmp` uses) resolves to something else when plain:
 * `<<` is the merge key (a driver config key `<<` would merge its value into the map around it, and
 * a `<<` value fails to load) and `=` the value key (fails to load).
 */
const YAML11_SPECIAL_STRINGS: ReadonlySet<string> = new Set(['<<', '=']);

/**
 * Characters `yaml` writes raw (JSON does not escape them) that PyYAML reads as line breaks (NEL,
 * LS, PS) or refuses (DEL, C1 controls, BOM, non-characters). Raw, they cut a key in two or fail the
 * whole file; inside double quotes they are written as YAML escapes instead.
 */
const RAW_UNSAFE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;
const YAML_ESCAPES: Readonly<Record<string, string>> = {
  '\u0085': '\\N',
  '\u2028': '\\L',
  '\u2029': '\\P',
};
const escapeRaw = (c: string) => YAML_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Tabs too: PyYAML refuses a tab inside a plain scalar. */
function needsQuotes(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  RAW_UNSAFE.lastIndex = 0;
  return (
    YAML11_SPECIAL_STRINGS.has(value) ||
    value.includes('\t') ||
    RAW_UNSAFE.test(value) ||
    // `yaml` writes a block scalar whose lines are only spaces without an indentation indicator, and
    // the spaces are read back as indentation (" \n" loads as "\n").
    (value.includes('\n') && SPACES_ONLY_LINE.test(value))
  );
}

const SPACES_ONLY_LINE = /^ +$/m;

/**
 * YAML for `config.yaml`. Written as YAML 1.1 because the exporter reads it with a YAML 1.1 loader:
 * strings such as `on`, `yes` or `no` are quoted so they stay strings, and so are the strings PyYAML
 * would misread (see {@link needsQuotes}). No line folding, no aliases. Whatever a template's driver
 * config holds, the exporter reads back exactly the data that was rendered
 * (test/hostile/exporter-config-injection.test.ts). `yaml` recurses, so a config nested deeper than
 * MAX_WALK_DEPTH (depth.ts) throws a NestingTooDeepError instead.
 */
export function renderExporterConfigYaml(config: ExporterConfig): string {
  assertNestingWithin(config, `ExporterConfig "${config.metadata?.name}"`);
  const doc = new Document(config, {
    version: '1.1',
    aliasDuplicateObjects: false,
    customTags: (tags) => tags.filter((tag) => typeof tag === 'string' || tag.tag !== MERGE_TAG),
  });
  visit(doc, {
    Scalar(_key, node) {
      if (needsQuotes(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  // Every string holding such a character is double-quoted now, and the rest of the text is ASCII.
  return doc.toString({ lineWidth: 0 }).replace(RAW_UNSAFE, escapeRaw);
}

/** A deep copy of JSON data; keys such as `__proto__` stay plain data keys. */
function clone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clone);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) defineKey(out, k, clone(v));
    return out;
  }
  return value;
}

function defineKey<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
