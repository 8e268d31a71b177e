/**
 * Fixed names of the `corellium.jumpstarter.dev` instance layout. The Corellium driver reads its API
 * host and token from the environment of the exporter; the rest of its settings come from its config.
 */

/** Jumpstarter's Corellium driver: creates the cloud device on power on, destroys it on power off. */
export const CORELLIUM_DRIVER_TYPE = 'jumpstarter_driver_corellium.driver.Corellium';
/** Name of the Corellium driver the provisioner adds when the template has none. */
export const DEFAULT_CORELLIUM_DRIVER_NAME = 'corellium';

/** Environment of the exporter container; nothing else in the Pod gets these. */
export const CorelliumEnvNames = {
  /** The API host, from the `api.host` parameter. */
  apiHost: 'CORELLIUM_API_HOST',
  /** The API token, from the class's credentials Secret. */
  apiToken: 'CORELLIUM_API_TOKEN',
} as const;

/** The key of the class's credentials Secret that holds the Corellium API token. */
export const CORELLIUM_TOKEN_KEY = 'token';
