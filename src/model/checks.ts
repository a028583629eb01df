/**
 * The checks, in the vendor's troubleshooting order: the one list the run order, each result's `order`, the
 * `--check` help and the report schema's enum of check ids come from (test/unit/checks/schema-ids.test.ts holds the
 * schema to it).
 */
export const CHECK_IDS = [
  'base-limit-document',
  'master-node-with-sme',
  'dashboards-hosts',
  'master-plugins',
  'limits-index-replicas',
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/** A check's place in the troubleshooting order, from 1: its position in CHECK_IDS. */
export const checkOrder = (id: CheckId): number => CHECK_IDS.indexOf(id) + 1;
