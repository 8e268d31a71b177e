import { ApiObject, Chart, Duration, Lazy, type ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import * as l1 from '../../imports/virtualtarget.jumpstarter.dev';
import type {
  DriverConfig,
  ExporterSet as ExporterSetObject,
  Images,
  JsonObject,
  LabelSelector,
  RecycleStrategy,
} from '../api';
import type { ValidationIssue } from '../core/issue';
import { validateExporterSet } from '../core/validate-exporter-set';
import { derivedSelectorIssues, exporterSetClassIssues } from '../manifests/checks';
import { buildExporterSet } from '../manifests/exporter-set';
import { issueLines } from '../manifests/messages';
import { exporterSetProp } from '../manifests/prop-paths';
import { constructError } from './errors';
import { toGoDuration } from './units';
import type { IVirtualTargetClass } from './virtual-target-class';

/** What every instance of the set looks like. */
export interface ExporterTemplateProps {
  /** Labels of each Exporter: what leases select on (`board: rpi4`, `virtual: "true"`). */
  readonly labels: Readonly<Record<string, string>>;
  /** @default none */
  readonly annotations?: Readonly<Record<string, string>>;
  /** Drivers of each exporter; a missing `name` is derived from the driver package. @default none */
  readonly drivers?: readonly DriverConfig[];
}

export interface ExporterSetProps {
  /** Name, namespace and labels of the set. @default name generated from the construct path; the chart's namespace */
  readonly metadata?: ApiObjectMetadata;
  /** The backend profile, in the set's namespace: a `VirtualTargetClass` or `VirtualTargetClass.fromName`. */
  readonly virtualTargetClass: IVirtualTargetClass;
  /** Floor: instances kept at all times. @default 0 */
  readonly minReplicas?: number;
  /** Ceiling; 0 means unbounded. @default 4 */
  readonly maxReplicas?: number;
  /** Warm buffer: ready, unleased instances kept waiting. @default 0 */
  readonly minAvailableReplicas?: number;
  /** How long surplus must last before scale-down. @default Duration.minutes(5) */
  readonly scaleDownCooldown?: Duration;
  /** What happens to an instance after its lease. @default "ExitAndReplace" */
  readonly recycleStrategy?: RecycleStrategy;
  /** Overrides deep-merged over the class parameters (lists replace). @default none */
  readonly parameters?: JsonObject;
  /** Image overrides; replace the class's per entry. @default the class's images */
  readonly images?: Images;
  /** Which Exporters belong to the set. @default matchLabels = the template labels */
  readonly selector?: LabelSelector;
  readonly template: ExporterTemplateProps;
}

/**
 * A warm pool of virtual exporters (JEP-0014): scaling bounds, the class it uses, and the template
 * of its instances. The set's own rules are checked at construction; the rules that involve its
 * class (same namespace, known provisioner, valid merged parameters) when the app is synthesized.
 */
export class ExporterSet extends Construct {
  public readonly name: string;
  public readonly namespace?: string;
  public readonly virtualTargetClass: IVirtualTargetClass;
  /** The generated L1 object; an escape hatch for JSON patches. */
  public readonly resource: ApiObject;
  private readonly props: ExporterSetProps;
  private readonly drivers: DriverConfig[];

  constructor(scope: Construct, id: string, props: ExporterSetProps) {
    super(scope, id);
    this.props = props;
    this.virtualTargetClass = props.virtualTargetClass;
    this.drivers = [...(props.template.drivers ?? [])];
    this.namespace = props.metadata?.namespace ?? Chart.of(this).namespace;
    this.resource = new l1.ExporterSet(this, 'Resource', {
      metadata: { ...props.metadata, namespace: this.namespace },
      spec: Lazy.any({ produce: () => this.toManifest().spec }),
    });
    this.name = this.resource.name;

    const issues = [...derivedSelectorIssues(props), ...validateExporterSet(this.toManifest())];
    if (issues.length > 0) throw constructError(this, 'ExporterSet', issues, exporterSetProp);
    this.node.addValidation({ validate: () => issueLines(this.synthIssues(), exporterSetProp) });
  }

  /** Adds a driver to every instance's exporter config. */
  public addDriver(driver: DriverConfig): void {
    this.drivers.push(driver);
  }

  public toManifest(): ExporterSetObject {
    const p = this.props;
    return buildExporterSet({
      name: this.name ?? p.metadata?.name ?? '',
      namespace: this.namespace,
      labels: p.metadata?.labels,
      annotations: p.metadata?.annotations,
      virtualTargetClassName: this.virtualTargetClass.name,
      minReplicas: p.minReplicas,
      maxReplicas: p.maxReplicas,
      minAvailableReplicas: p.minAvailableReplicas,
      scaleDownCooldown: p.scaleDownCooldown ? toGoDuration(p.scaleDownCooldown) : undefined,
      recycleStrategy: p.recycleStrategy,
      parameters: p.parameters,
      images: p.images,
      selector: p.selector,
      template: { labels: p.template.labels, annotations: p.template.annotations, drivers: this.drivers },
    });
  }

  /** Everything checked at synth: the set's own rules again (after add* calls) and its class. */
  private synthIssues(): ValidationIssue[] {
    const set = this.toManifest();
    const own = validateExporterSet(set);
    if (own.length > 0) return own;
    const manifest = this.virtualTargetClass.toManifest();
    if (!manifest) return []; // imported by name: the controller checks it in the cluster
    return exporterSetClassIssues(set, manifest);
  }
}
