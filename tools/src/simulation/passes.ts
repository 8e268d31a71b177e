/**
 * The controller's passes now running, each with how long it has run (the work queue's
 * `passesInFlight`): the oracle's measure of a loaded machine, where one pass may span many cluster
 * seconds (a cluster second is a few wall milliseconds).
 */
export type PassesInFlight = () => readonly { readonly key: string; readonly forMs: number }[];
