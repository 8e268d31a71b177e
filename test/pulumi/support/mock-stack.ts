/**
 * A Pulumi stack under `pulumi.runtime.setMocks`, recording what the program registers: type, name,
 * parent, `dependsOn` and inputs of every resource. Mocks are process-wide, so each test file starts
 * one stack (before it imports any program or component module) and each test uses its own resource
 * names and looks its resources up by them.
 */
import * as pulumi from '@pulumi/pulumi';

export interface RegisteredResource {
  readonly urn: string;
  readonly type: string;
  readonly name: string;
  /** The parent's URN; empty for resources without a parent. */
  readonly parent: string;
  /** URNs of the resources this one waits for. */
  readonly dependsOn: readonly string[];
  /** False for component resources. */
  readonly custom: boolean;
  readonly inputs: Record<string, any>;
}

interface RegisterRequest {
  getType(): string;
  getName(): string;
  getParent(): string;
  getCustom(): boolean;
  getDependenciesList(): string[];
  getObject(): Parameters<typeof pulumi.runtime.deserializeProperties>[0];
}
type Callback = (err: unknown, response?: { getUrn(): string }) => void;
interface Monitor {
  registerResource(req: RegisterRequest, callback: Callback): Promise<void>;
}

export class MockStack {
  /**
   * Sets the mocks and starts recording. The mocks answer each resource with its inputs as its state,
   * as a freshly created Kubernetes object would.
   */
  public static async start(project = 'project', stack = 'stack'): Promise<MockStack> {
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => ({ id: args.custom ? `${args.name}-id` : undefined, state: args.inputs }),
        call: (args) => args.inputs,
      },
      project,
      stack,
      false,
    );
    const recorder = new MockStack();
    // setMocks gives the mock monitor no parent or dependencies; the request it handles has both.
    const monitor = pulumi.runtime.getMonitor() as unknown as Monitor;
    const register = monitor.registerResource.bind(monitor);
    monitor.registerResource = (req, callback) =>
      register(req, (err, response) => {
        if (!err && response) recorder.record(req, response.getUrn());
        callback(err, response);
      });
    return recorder;
  }

  private readonly registered: RegisteredResource[] = [];

  private record(req: RegisterRequest, urn: string): void {
    this.registered.push({
      urn,
      type: req.getType(),
      name: req.getName(),
      parent: req.getParent(),
      dependsOn: req.getDependenciesList(),
      custom: req.getCustom(),
      inputs: pulumi.runtime.deserializeProperties(req.getObject()),
    });
  }

  /**
   * Waits until every registration started so far has finished: what the Pulumi language host waits
   * for before the program ends. (`waitForRPCs` is internal to the SDK, so its absence fails loudly.)
   */
  public async settle(): Promise<void> {
    const wait = (pulumi.runtime as unknown as { waitForRPCs?: () => Promise<void> }).waitForRPCs;
    if (typeof wait !== 'function') throw new Error('@pulumi/pulumi no longer has runtime.waitForRPCs');
    await wait();
  }

  /** Every resource registered so far, in registration order. */
  public all(): RegisteredResource[] {
    return [...this.registered];
  }

  /** The one resource with this type and name; fails the test when it is missing or doubled. */
  public one(type: string, name: string): RegisteredResource {
    const found = this.registered.filter((r) => r.type === type && r.name === name);
    if (found.length !== 1) {
      const seen = this.registered.map((r) => `${r.type}::${r.name}`).join(', ');
      throw new Error(`expected one ${type} named ${name}, found ${found.length} among ${seen}`);
    }
    return found[0];
  }

  /** What was registered for this resource object. */
  public async of(resource: pulumi.Resource): Promise<RegisteredResource> {
    const urn = await valueOf(resource.urn);
    const found = this.registered.find((r) => r.urn === urn);
    if (!found) throw new Error(`${urn} was not registered (call settle() first)`);
    return found;
  }

  /** The direct children of a resource, in the order their registrations completed. */
  public childrenOf(parent: RegisteredResource): RegisteredResource[] {
    return this.registered.filter((r) => r.parent === parent.urn);
  }

  /** The resource and everything under it that is a Kubernetes object, as plain manifests. */
  public kubernetesObjects(root: RegisteredResource): Record<string, any>[] {
    const under = (r: RegisteredResource): RegisteredResource[] => [
      r,
      ...this.childrenOf(r).flatMap((child) => under(child)),
    ];
    return under(root)
      .filter((r) => r.custom && r.type.startsWith('kubernetes:'))
      .map((r) => r.inputs);
  }
}

/** The value of an Output that resolves (under mocks every value is known). */
export function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) =>
    output.apply((value) => {
      resolve(value);
      return value;
    }),
  );
}
