/**
 * Kubernetes Events on ExporterSets (SPEC §3: one per scale action and condition change), written as
 * core/v1 Events by the controller's identity. An Event that cannot be written is logged and dropped:
 * events are for people, a pass never fails because of one.
 */
import type { CoreV1Api, CoreV1Event } from '@kubernetes/client-node';
import type { ExporterSet } from 'virtual-exporters/internal';
import type { Logger } from '../process/logger';
import type { PlanEvent } from '../planner';
import type { Clock } from '../queue/clock';
import { apiErrorMessage } from '../kube/api-errors';

export const EVENT_SOURCE = 'exporter-set-controller';

/** What an Event is about: a set, or another object of ours. */
export type EventSubject = Pick<ExporterSet, 'apiVersion' | 'metadata'> & { readonly kind: string };

export class EventRecorder {
  constructor(
    private readonly core: CoreV1Api,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Records `events` on a set, or on any object of ours (an ExporterOperation). */
  async record(set: EventSubject, events: readonly PlanEvent[]): Promise<void> {
    await Promise.all(events.map((event) => this.write(set, event)));
  }

  private async write(set: EventSubject, event: PlanEvent): Promise<void> {
    const namespace = set.metadata?.namespace ?? 'default';
    const now = new Date(this.clock.now());
    const body: CoreV1Event = {
      metadata: { generateName: `${set.metadata?.name ?? set.kind.toLowerCase()}.`, namespace },
      involvedObject: {
        apiVersion: set.apiVersion,
        kind: set.kind,
        name: set.metadata?.name,
        namespace,
        ...(set.metadata?.uid ? { uid: set.metadata.uid } : {}),
      },
      reason: event.reason,
      message: event.message,
      type: event.type,
      count: 1,
      firstTimestamp: now,
      lastTimestamp: now,
      source: { component: EVENT_SOURCE },
      reportingComponent: EVENT_SOURCE,
    };
    try {
      await this.core.createNamespacedEvent({ namespace, body });
    } catch (error) {
      this.logger.warn({ reason: event.reason, error: apiErrorMessage(error) }, 'could not record an event');
    }
  }
}
