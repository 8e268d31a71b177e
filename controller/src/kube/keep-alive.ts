/**
 * One connection pool for the controller's API calls. client-node 1.x makes a new Agent in every
 * `KubeConfig.applySecurityAuthentication`, so each request opened a connection of its own: on a real
 * server a TLS handshake with the client certificate on both ends, 27 % of the controller's busy CPU
 * in bench P1 (bench/README.md). Here each request still gets its headers (a rotated token is read
 * as before) and its TLS options from the KubeConfig; the connection comes from a keep-alive agent
 * made for those options, made again when they change (a rotated client certificate). A proxy keeps
 * client-node's own agent. Watches do not come through here (client-node's Watch makes its agent).
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent, type AgentOptions } from 'node:https';
import {
  createConfiguration,
  ServerConfiguration,
  type Configuration,
  type KubeConfig,
  type RequestContext,
  type SecurityAuthentication,
} from '@kubernetes/client-node';

/** The TLS options that decide which connections a request may share. */
const TLS_KEYS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'] as const;

type TlsValue = AgentOptions[(typeof TLS_KEYS)[number]];

function sameValue(a: TlsValue, b: TlsValue): boolean {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => sameValue(x as TlsValue, b[i] as TlsValue));
  }
  return a === b;
}

function sameTls(a: AgentOptions, b: AgentOptions): boolean {
  return TLS_KEYS.every((k) => sameValue(a[k], b[k]));
}

/** An idle agent left behind by a change of TLS options is destroyed after this (ms). */
const RETIRE_AFTER_MS = 60_000;

export class KeepAliveAuthentication implements SecurityAuthentication {
  private pooled?: { readonly tls: AgentOptions; readonly agent: HttpAgent };
  private readonly retiring = new Map<NodeJS.Timeout, HttpAgent>();
  private closed = false;

  constructor(private readonly kubeConfig: KubeConfig) {}

  getName(): string {
    return 'keep-alive';
  }

  async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await this.kubeConfig.applySecurityAuthentication(context);
    const made = context.getAgent();
    if (made === undefined || this.closed || this.kubeConfig.getCurrentCluster()?.proxyUrl) return;
    if (!(made instanceof HttpsAgent) && !(made instanceof HttpAgent)) return;
    context.setAgent(this.agentFor(made));
  }

  /** The pooled agent for the options client-node gave `made`; a new one when they changed. */
  private agentFor(made: HttpAgent): HttpAgent {
    const tls = (made as HttpsAgent).options ?? {};
    if (this.pooled && sameTls(this.pooled.tls, tls)) return this.pooled.agent;
    if (this.pooled) this.retire(this.pooled.agent);
    const agent =
      made instanceof HttpsAgent
        ? new HttpsAgent({ ...pick(tls), keepAlive: true })
        : new HttpAgent({ keepAlive: true });
    this.pooled = { tls, agent };
    return agent;
  }

  /** Requests under way on an agent of old options finish; its sockets go after a while. */
  private retire(agent: HttpAgent): void {
    const timer = setTimeout(() => {
      this.retiring.delete(timer);
      agent.destroy();
    }, RETIRE_AFTER_MS);
    timer.unref();
    this.retiring.set(timer, agent);
  }

  /** Closes every pooled connection; later requests get client-node's own agent. */
  close(): void {
    this.closed = true;
    this.pooled?.agent.destroy();
    this.pooled = undefined;
    for (const [timer, agent] of this.retiring) {
      clearTimeout(timer);
      agent.destroy();
    }
    this.retiring.clear();
  }
}

function pick(tls: AgentOptions): AgentOptions {
  const out: Record<string, unknown> = {};
  for (const k of TLS_KEYS) if (tls[k] !== undefined) out[k] = tls[k];
  return out as AgentOptions;
}

/** An API client of `kubeConfig`'s current cluster whose requests authenticate through `auth`. */
export function keepAliveClient<T>(
  kubeConfig: KubeConfig,
  auth: SecurityAuthentication,
  apiClientType: new (configuration: Configuration) => T,
): T {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster: set its current-context');
  return new apiClientType(
    createConfiguration({
      baseServer: new ServerConfiguration(cluster.server, {}),
      authMethods: { default: auth },
    }),
  );
}
