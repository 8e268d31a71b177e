/**
 * A KubeConfig whose API calls share one keep-alive HTTPS agent, for the bench's own clients of the
 * real server (the simulators): client-node 1.x makes a new `https.Agent` for every call
 * (`KubeConfig.applySecurityAuthentication`), so every request would open a new TLS connection. The
 * simulators stand in for Jumpstarter's Go controller and a kubelet, which keep their connections;
 * the controller and P1's tight loop keep theirs through the controller's clients
 * (controller/src/kube/keep-alive.ts).
 */
import { Agent } from 'node:https';
import { KubeConfig, type RequestContext } from '@kubernetes/client-node';

export class KeepAliveKubeConfig extends KubeConfig {
  private agent?: Promise<Agent>;

  private sharedAgent(): Promise<Agent> {
    this.agent ??= (async () => {
      const tls: { ca?: Buffer; cert?: Buffer; key?: Buffer; rejectUnauthorized?: boolean } = {};
      await this.applyToHTTPSOptions(tls);
      return new Agent({
        keepAlive: true,
        ca: tls.ca,
        cert: tls.cert,
        key: tls.key,
        rejectUnauthorized: tls.rejectUnauthorized ?? !this.getCurrentCluster()?.skipTLSVerify,
      });
    })();
    return this.agent;
  }

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await super.applySecurityAuthentication(context);
    context.setAgent(await this.sharedAgent());
  }

  /** Closes the shared agent's sockets. */
  async close(): Promise<void> {
    (await this.agent)?.destroy();
  }
}

/** A keep-alive KubeConfig from a kubeconfig's YAML. */
export function keepAliveKubeConfig(yaml: string): KeepAliveKubeConfig {
  const kubeConfig = new KeepAliveKubeConfig();
  kubeConfig.loadFromString(yaml);
  return kubeConfig;
}
