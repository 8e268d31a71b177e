import { ApiObject, Chart, Duration, Lazy, type ApiObjectMetadata, type Cron } from 'cdk8s';
import { Construct } from 'constructs';
import * as l1 from '../../imports/virtualtarget.jumpstarter.dev';
import type { DriverConfig, ExporterSet as ExporterSetObject, WarmBufferSchedule } from '../api';
import type { ValidationIssue } from '../core/issue';
import { validateExporterSet } from '../core/validate-exporter-set';
import { derivedSelectorIssues, exporterSetClassIssues } from '../manifests/checks';
import {
  buildExporterSet,
  type ExporterSetInput,
  type ExporterSetOptions,
  type ExporterTemplateInput,
} from '../manifests/exporter-set';
import { issueLines } from '../manifests/messages';
import { withObjectMeta } from '../manifests/object-meta-input';
import { exporterSetProp } from '../manifests/prop-paths';
import { constructError } from './errors';
import { toGoDuration, type WithUnits } from './units';
import { classManifestOf, type IVirtualTargetClass } from './virtual-target-class';

/** What every instance of the set looks like: the framework-neutral template (`ExporterTemplateInput`). */
export type ExporterTemplateProps = ExporterTemplateInput;

/**
 * A scheduled warm buffer (`ExporterSetOptions.schedules`): the framework-neutral one with the cron a
 * cdk8s `Cron` (`Cron.schedule({ minute: '0', hour: '8', weekDay: '1-5' })`) and the durations `Duration`s.
 */
export type ExporterSetScheduleProps = WithUnits<
  WarmBufferSchedule,
  { cron: Cron; duration: Duration; leadTime: Duration }
>;

/**
 * The set's settings are the framework-neutral ones (`ExporterSetOptions`, where each is documented),
 * with the cooldown a `Duration`, the requested recycle a `Date` and the schedules' cron and durations
 * a `Cron` and `Duration`s.
 */
export interface ExporterSetProps extends WithUnits<
  ExporterSetOptions,
  {
    scaleDownCooldown: Duration;
    recycleRequestedAt: Date;
    schedules: readonly ExporterSetScheduleProps[];
  }
> {
  /** Name, namespace and labels of the set. @default name generated from the construct path; the chart's namespace */
  readonly metadata?: ApiObjectMetadata;
  /** The backend profile, in the set's namespace: a `VirtualTargetClass` or `VirtualTargetClass.fromName`. */
  readonly virtualTargetClass: IVirtualTargetClass;
}

/** The cdk8s props as the framework-neutral input, with the name and namespace the construct settled on. */
export function exporterSetInput(
  props: ExporterSetProps,
  name: string,
  namespace: string | undefined,
): ExporterSetInput {
  const { metadata, virtualTargetClass, scaleDownCooldown, schedules, ...options } = props;
  const settings = {
    virtualTargetClassName: virtualTargetClass.name,
    scaleDownCooldown: scaleDownCooldown && toGoDuration(scaleDownCooldown),
    schedules: schedules?.map(scheduleInput),
    ...options,
  };
  return withObjectMeta(settings, metadata, name, namespace);
}

/** A schedule's props as the framework-neutral schedule: the cron's expression, Go durations. */
function scheduleInput(schedule: ExporterSetScheduleProps): WarmBufferSchedule {
  const { cron, duration, leadTime, ...rest } = schedule;
  return {
    ...rest,
    cron: cron.expressionString,
    duration: toGoDuration(duration),
    ...(leadTime !== undefined ? { leadTime: toGoDuration(leadTime) } : {}),
  };
}

/**
 * The generated L1 object, serialized without the generated class's conversion step: that step renames
 * nothing here and writes `date-time` fields with `toISOString()`, which the RFC 3339 text the builder
 * already wrote (spec.recycleRequestedAt) does not have.
 */
class ExporterSetResource extends l1.ExporterSet {
  public override toJson(): unknown {
    return ApiObject.prototype.toJson.call(this);
  }
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
  private readonly input: ExporterSetInput;
  private readonly drivers: DriverConfig[];
  /** The manifest built for the current drivers; dropped by `addDriver`. */
  private built?: ExporterSetObject;
  /** The manifest whose own rules held at construction: synth checks them again only if it changed. */
  private readonly checked: ExporterSetObject;

  constructor(scope: Construct, id: string, props: ExporterSetProps) {
    super(scope, id);
    this.virtualTargetClass = props.virtualTargetClass;
    this.drivers = [...(props.template.drivers ?? [])];
    this.namespace = props.metadata?.namespace ?? Chart.of(this).namespace;
    this.resource = new ExporterSetResource(this, 'Resource', {
      metadata: { ...props.metadata, namespace: this.namespace },
      spec: Lazy.any({ produce: () => this.manifest().spec }),
    });
    this.name = this.resource.name;
    this.input = exporterSetInput(props, this.name, this.namespace);

    this.checked = this.manifest();
    const issues = [...derivedSelectorIssues(this.input), ...validateExporterSet(this.checked)];
    if (issues.length > 0) throw constructError(this, 'ExporterSet', issues, exporterSetProp);
    this.node.addValidation({ validate: () => issueLines(this.synthIssues(), exporterSetProp) });
  }

  /** Adds a driver to every instance's exporter config. */
  public addDriver(driver: DriverConfig): void {
    this.drivers.push(driver);
    this.built = undefined;
  }

  /** The set as it will be synthesized: its props, with the drivers added since (built once per change). */
  private manifest(): ExporterSetObject {
    this.built ??= buildExporterSet({
      ...this.input,
      template: { ...this.input.template, drivers: [...this.drivers] },
    });
    return this.built;
  }

  /** Everything checked at synth: the set's own rules again (after add* calls) and its class. */
  private synthIssues(): ValidationIssue[] {
    const set = this.manifest();
    const own = set === this.checked ? [] : validateExporterSet(set);
    if (own.length > 0) return own;
    const manifest = classManifestOf(this.virtualTargetClass);
    if (!manifest) return []; // imported by name: the controller checks it in the cluster
    return exporterSetClassIssues(set, manifest);
  }
}
