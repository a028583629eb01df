/** Check packs: what they read (joined to audit's one batched command and REST reads), judging, and their remedies. */
export { needsOf, hostReadsNeeded, apiRequest, requestKey, unsafeRelPath, type PackNeeds } from './sources.ts';
export { packBatchLines, packReadsOf, isPackTag } from './gather-host.ts';
export { judgePacks, refuseConflicts } from './judge-all.ts';
export { judgeCheck, type JudgeOptions } from './judge.ts';
export { readSource, pick } from './sources-read.ts';
export { jvmOption, jdkMajor } from './sources-jvm.ts';
export { readCertificate, DEMO_FINGERPRINTS } from './sources-cert.ts';
export { loadPacks, loadWaivers, packFiles, parsePack, parseWaivers, problemLine, readCapped } from './load.ts';
export type { PackProblem } from './load-yaml.ts';
export { counts, parseSeverity } from './severity.ts';
export { applyWaivers } from './waivers.ts';
export { builtinNames, BUILTIN_PREFIX } from './builtin.ts';
