/** Check packs: what they read (joined to audit's one batched command and REST reads), judging, and their remedies. */
export { apiRequest, requestKey, type PackNeeds } from './read/sources.ts';
export { needsOf, hostReadsNeeded } from './read/needs.ts';
export { packBatchLines, packReadsOf, isPackTag } from './read/gather-host.ts';
export { judgePacks, refuseConflicts } from './judge/judge-all.ts';
export { judgeCheck } from './judge/judge.ts';
export { readSource } from './read/sources-read.ts';
export { pick } from './read/pick.ts';
export { jvmOption, jdkMajor } from './read/sources-jvm.ts';
export { readCertificate } from './read/sources-cert.ts';
export { loadPacks, loadWaivers, packFiles, parsePack, parseWaivers, problemLine, readCapped } from './load/load.ts';
export type { PackProblem } from './load/load-yaml.ts';
export { counts, parseSeverity } from './judge/severity.ts';
export { applyWaivers } from './judge/waivers.ts';
export { builtinNames, BUILTIN_PREFIX } from './load/builtin.ts';
