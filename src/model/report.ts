/**
 * What the checks make of the facts: each check's result and its findings. Plain JSON, declared once as valibot
 * shapes: the types here, schema/report.json (`npm run schema`) and the report reader all come from them.
 */
import * as v from 'valibot';
import { CHECK_IDS } from './checks.ts';
import type { CheckId } from './checks.ts';
import type { ClusterFacts } from './facts.ts';
import { PACK_CHECK_ID_RE, SEVERITIES } from './pack.ts';
import { ActionShape, AnyObject, type Action } from './plan.ts';

const str = v.string();
const about = <S extends v.GenericSchema>(s: S, text: string) => v.pipe(s, v.description(text));

/** Every status a check can have: the one list the report reader, the HTML classes and the schema's enum follow. */
export const CHECK_STATUSES = ['pass', 'fail', 'error', 'skip', 'waived'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];
export const StatusShape = v.picklist(CHECK_STATUSES);

/** Whether a value read from a file is a status smdoctor writes (anything else never becomes a class or a word). */
export const isCheckStatus = (s: unknown): s is CheckStatus => (CHECK_STATUSES as readonly unknown[]).includes(s);

/** A vendor check's id, or a pack check's full id `pack/id`. */
export type AnyCheckId = CheckId | `${string}/${string}`;

export const VendorCheckIdShape = about(
  v.picklist(CHECK_IDS),
  "A check's id; the checks run in this order, the vendor's troubleshooting order",
);
export const CheckIdShape = about(
  // the pattern holds the slash the type says
  v.union([VendorCheckIdShape, v.pipe(str, v.regex(PACK_CHECK_ID_RE)) as v.GenericSchema<`${string}/${string}`>]),
  "A vendor check's id, or a pack check's full id pack/id (docs/packs.md)",
);

/** problem: the check's condition holds · restart-pending: disk and running state differ · unverified: could not be read · note: context. */
export const FINDING_KINDS = ['problem', 'restart-pending', 'unverified', 'note'] as const;

export const FindingShape = v.strictObject({
  host: v.optional(str),
  message: str,
  kind: v.optional(about(v.picklist(FINDING_KINDS), 'absent means problem')),
  evidence: v.optional(about(AnyObject, 'what the finding rests on: file and line, values read')),
});
export type Finding = v.InferOutput<typeof FindingShape>;

export const CheckResultShape = v.strictObject({
  id: CheckIdShape,
  /** Pack checks: after the vendor's five, in load order. */
  order: v.pipe(v.number(), v.integer(), v.minValue(1)),
  status: StatusShape,
  severity: v.optional(
    about(v.picklist(SEVERITIES), "pack checks: the pack's severity (the vendor's five are critical)"),
  ),
  title: v.optional(str),
  why: v.optional(str),
  docs: v.optional(str),
  waiver: v.optional(
    about(
      v.strictObject({ reason: str, expires: v.optional(v.pipe(str, v.regex(/^\d{4}-\d{2}-\d{2}$/))) }),
      'the waiver that turned a failure into waived',
    ),
  ),
  /** One line: why it passed, failed, errored or was skipped. */
  reason: str,
  findings: v.array(FindingShape),
  actions: v.array(ActionShape),
});
type CheckResultOut = v.InferOutput<typeof CheckResultShape>;
/** A check's result; its actions typed as the plan's (`Action`: each kind's fields, the others absent). */
export type CheckResult = Omit<CheckResultOut, 'actions'> & { actions: Action[] };

/** A check: states the troubleshooting row it implements, reads gathered facts, returns findings and planned actions. Pure. */
export interface Check {
  id: CheckId;
  /** checkOrder(id): its place in the vendor's troubleshooting order. */
  order: number;
  /** The row of the vendor's troubleshooting table it implements, quoted: `| n | where | condition | fix |`. */
  troubleshootingRow: string;
  run(facts: ClusterFacts): CheckResult;
}
