/** Words shared by the human formats: one action, one piece of evidence, the summary. */
import { stringifyLong } from '../base/json-long.ts';
import {
  ALLOCATION_KEY,
  type Action,
  type CheckResult,
  type ClusterReport,
  type Finding,
  type Report,
} from '../model/index.ts';
import { unhandled } from '../base/errors.ts';

export const clusterLabel = (clusterReport: ClusterReport): string =>
  clusterReport.name && clusterReport.name !== clusterReport.api_url
    ? `${clusterReport.name} (${clusterReport.api_url})`
    : clusterReport.api_url;

const scalar = (v: unknown): string => (typeof v === 'string' ? v : stringifyLong(v));
// long evidence (a whole error body) stays readable in the human formats; json keeps all of it
const brief = (v: unknown): string => {
  const s = scalar(v);
  return s.length > 100 ? `${s.slice(0, 99)}…` : s;
};

/** `file:line` when the evidence has a position, else compact key=value pairs. */
export function evidenceText(e: Finding['evidence']): string {
  if (!e) return '';
  const parts: string[] = [];
  const file = e.file ?? e.path;
  if (typeof file === 'string') parts.push(`${file}${e.line !== undefined ? `:${scalar(e.line)}` : ''}`);
  for (const [k, v] of Object.entries(e)) {
    if (['file', 'path', 'line', 'kind'].includes(k) || v === undefined) continue;
    parts.push(`${k}=${brief(v)}`);
  }
  return parts.join(' ');
}

export function findingLine(finding: Finding): string {
  const ev = evidenceText(finding.evidence);
  return `${finding.host ? `${finding.host}: ` : ''}${finding.message}${ev ? ` [${ev}]` : ''}`;
}

/** One line saying what the action does; the diff or body comes separately. */
export function actionLine(action: Action): string {
  const on = action.host ? ` on ${action.host}` : '';
  const why = action.error ?? action.reason;
  const st = action.status === 'planned' ? '' : ` [${action.status}${why ? `: ${why}` : ''}]`;
  switch (action.type) {
    case 'set-yaml':
    case 'set-hosts':
      return `${action.type}${on}: ${action.path ?? ''}${action.key ? ` ${action.key} = ${scalar(action.value)}` : ''}${st}`;
    case 'reset-allocation':
      return `reset-allocation: PUT /_cluster/settings ${ALLOCATION_KEY} = null (persistent and transient)${st}`;
    case 'put-document':
    case 'put-settings':
    case 'verify-shards':
      return `${action.type}: ${action.method ?? 'GET'} ${action.api_path ?? ''}${st}`;
    case 'remove-plugin':
    case 'remove-keystore-entry':
    case 'restart-service':
      return `${action.type}${on}${action.service ? ` (${action.service})` : ''}${action.command ? `: ${action.command}` : ''}${st}`;
    default:
      return unhandled(action, 'action');
  }
}

/** fix: ✓ done, ✗ failed, – skipped; nothing while planned. */
export const STATUS_MARK: Record<Action['status'], string> = { planned: '', done: '✓', failed: '✗', skipped: '–' };

/** The REST body, pretty, when there is one. */
export const actionBody = (a: Action): string | null => (a.body === undefined ? null : stringifyLong(a.body, 2));

export function summaryLine(report: Report): string {
  const s = report.summary;
  const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
  return `${plural(s.clusters, 'cluster')}, ${plural(s.hosts, 'host')}, ${s.unreachable} unreachable, ${plural(s.checks_failed, 'check')} failed`;
}

/** fix: what applying did, one line. */
export function fixLine(r: Report): string | null {
  if (!r.fix) return null;
  const f = r.fix;
  return `${f.done} done, ${f.failed} failed, ${f.skipped} skipped${f.interrupted ? ' (interrupted)' : ''}`;
}

/** One line of a text that may hold line breaks (a pack's `why`), for formats that are line by line. */
export const oneLine = (s: string): string => s.replace(/\s*[\r\n\u0085\u2028\u2029]+\s*/g, ' ').trim();

/** What a pack check says of itself and the waiver that waived it, one line each; none for the vendor's checks. */
export function checkAbout(k: CheckResult): string[] {
  return [
    ...(k.title !== undefined ? [`${oneLine(k.title)} (severity ${k.severity ?? 'critical'})`] : []),
    ...(k.why !== undefined ? [`why: ${oneLine(k.why)}`] : []),
    ...(k.docs !== undefined ? [`docs: ${oneLine(k.docs)}`] : []),
    ...(k.waiver ? [waiverLine(k.waiver)] : []),
  ];
}

export const waiverLine = (w: NonNullable<CheckResult['waiver']>): string =>
  `waived: ${oneLine(w.reason)}${w.expires ? ` (until ${w.expires})` : ''}`;
