/**
 * How audit, fix and the migration reach a fleet: an inventory host's settings, its cluster, an SSH session, a REST
 * client, all through one fleet session (fleet.ts). The inventory, the transport and the REST client know nothing of
 * each other: this module maps one onto the others.
 */
export type { AccessOptions, ReachHost } from './types.ts';
export { reachClusters, reachHost } from './host.ts';
export { apiTarget, sshTarget } from './targets.ts';
export { accessOf } from './access.ts';
export { newRouteCache, type RouteCache } from './route-cache.ts';
// the openers themselves (deps.ts) are the fleet session's: audit, fix and the migration go through it
export type { ReachDeps } from './deps.ts';
export { fleetOf, openFleet, type Fleet, type FleetRun } from './fleet.ts';
// serve keeps its connections between cycles: the command line gives it the real openers
export { connectHost, openClusterApi } from './deps.ts';
export { tracedWiring, type Trace } from './trace.ts';
