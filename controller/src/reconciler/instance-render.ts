/**
 * Rendering the instances of one set with the provisioner, for one pass: the token comes from the
 * credential Secret `<exporter>-exporter` in the Secret cache (which keeps Jumpstarter's credential
 * Secrets, see `keepSecret`), the CA bundle from the CA-bundle cache, read at most once per pass.
 */
import { createHash } from 'node:crypto';
import {
  assertNestingWithin,
  mergeParameters,
  type Exporter,
  type ExporterSet,
  type InstanceInput,
  type LifecycleInstance,
  type Provisioner,
  type ProvisionerCredentials,
  type RenderedInstance,
  type TrustStore,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import type { CacheView } from '../kube/informer-contract';
import type { SecretObject } from '../kube/wire';
import type { SecretView } from '../planner';
import type { CaBundleCache } from './ca-bundle-cache';

export interface RenderDeps {
  readonly caches: { readonly secrets: CacheView<SecretObject> };
  readonly provisioner: Provisioner;
  readonly caBundles: CaBundleCache;
  /**
   * Reads the class's credentials Secret (decoded, by key) for a lifecycle provisioner; without it a
   * lifecycle gets none.
   */
  readonly readCredentials?: (namespace: string, name: string) => Promise<ProvisionerCredentials>;
  /**
   * The trust store kept beside the class's credentials Secret `name` (host keys trusted on first use);
   * without it a lifecycle keeps its trust in memory only.
   */
  readonly trustStore?: (namespace: string, name: string) => TrustStore;
}

/** Everything of an Exporter a render may read (not its status beyond these). */
function exporterInputs(exporter: Exporter): unknown[] {
  const { uid, name, namespace, labels, annotations, ownerReferences } = exporter.metadata ?? {};
  return [
    uid,
    name,
    namespace,
    labels,
    annotations,
    ownerReferences,
    exporter.spec,
    exporter.status?.endpoint,
    exporter.status?.credential,
  ];
}

function decode(value: string | undefined): string | undefined {
  return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
}

export class SetRenderer {
  private readonly namespace: string;
  private caBundle: Promise<string | undefined> | undefined;
  private credentials: Promise<ProvisionerCredentials> | undefined;
  private trust: TrustStore | undefined;
  /** What every instance of the pass shares, serialized once. */
  private setInputs: string | undefined;

  constructor(
    private readonly key: string,
    private readonly set: ExporterSet,
    private readonly cls: VirtualTargetClass | undefined,
    private readonly exporters: ReadonlyMap<string, Exporter>,
    private readonly deps: RenderDeps,
  ) {
    this.namespace = set.metadata?.namespace ?? '';
  }

  /** The token of the instance's credential Secret, when the cache holds one. */
  tokenOf(exporter: Exporter): string | undefined {
    const secretName = exporter.status?.credential?.name;
    const secret = secretName
      ? (this.deps.caches.secrets.get(this.namespace, secretName) as SecretView | undefined)
      : undefined;
    return decode(secret?.data?.token);
  }

  /** Renders an instance (config Secret, Pod); throws when it cannot be rendered yet. */
  readonly render = async (name: string): Promise<RenderedInstance> => {
    const exporter = this.exporters.get(name);
    if (!exporter) throw new Error(`instance ${this.namespace}/${name} is not in the cache`);
    return this.deps.provisioner.render(await this.inputOf(exporter));
  };

  /**
   * The instance as a lifecycle sees it: the render's input, the class's credentials (read once a pass)
   * and the trust store beside them (one a pass).
   */
  readonly lifecycleInput = async (exporter: Exporter): Promise<LifecycleInstance> => {
    const input = await this.inputOf(exporter);
    const secret = input.virtualTargetClass.spec?.credentialsSecretRef?.name;
    const read = this.deps.readCredentials;
    this.credentials ??= secret && read ? read(this.namespace, secret) : Promise.resolve({});
    if (secret && this.deps.trustStore) this.trust ??= this.deps.trustStore(this.namespace, secret);
    return {
      ...input,
      credentials: await this.credentials,
      ...(this.trust !== undefined ? { trust: this.trust } : {}),
    };
  };

  private async inputOf(exporter: Exporter): Promise<InstanceInput> {
    const cls = this.cls;
    if (!cls) {
      throw new Error(
        `the VirtualTargetClass ${this.set.spec?.virtualTargetClassName} of ${this.key} does not exist`,
      );
    }
    const token = this.tokenOf(exporter);
    const ca = await this.caBundleOf(cls);
    return {
      exporterSet: this.set,
      virtualTargetClass: cls,
      parameters: mergeParameters(cls.spec?.parameters, this.set.spec?.parameters),
      exporter,
      token: token ?? '',
      ...(ca !== undefined ? { caBundle: ca } : {}),
    };
  }

  /**
   * A digest of everything a render of `exporter` reads: the set's and class's identity and spec, the
   * Exporter's identity, metadata, spec, endpoint and credential, the token and the CA bundle.
   */
  async inputsOf(exporter: Exporter, cls: VirtualTargetClass): Promise<string> {
    const token = this.tokenOf(exporter);
    const ca = await this.caBundleOf(cls);
    const set = this.set;
    // JSON.stringify recurses: spec data too deep for it is refused (NestingTooDeepError), never a stack overflow.
    assertNestingWithin(set.spec, `the spec of ${this.key}`);
    assertNestingWithin(cls.spec, `the spec of VirtualTargetClass ${cls.metadata?.name}`);
    this.setInputs ??= JSON.stringify([
      set.metadata?.uid,
      set.metadata?.name,
      set.spec,
      cls.metadata?.uid,
      cls.spec,
      ca,
    ]);
    return createHash('sha256')
      .update(this.setInputs)
      .update('\u0000')
      .update(JSON.stringify([...exporterInputs(exporter), token]))
      .digest('base64');
  }

  private caBundleOf(cls: VirtualTargetClass): Promise<string | undefined> {
    this.caBundle ??= this.deps.caBundles.bundle(this.key, this.namespace, cls);
    return this.caBundle;
  }
}
