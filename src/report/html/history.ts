/** The last runs of each check, from the JSON reports kept with --history: a strip of small squares, oldest first. */
import {
  isCheckStatus,
  type AnyCheckId,
  type CheckStatus,
  type ClusterReport,
  type Report,
} from '../../model/index.ts';
import { currentChecks } from '../current.ts';
import { esc } from '../../text/index.ts';
import { STATUS_WORD } from './status.ts';

/** A fix report counts by what its audit after applying saw; an audit by its checks. */
export function statusesOf(clusterReport: ClusterReport): Map<AnyCheckId, CheckStatus> {
  return new Map(currentChecks(clusterReport).map((k) => [k.id, k.status]));
}

export interface Strip {
  at: string;
  status: CheckStatus | null;
}

/** The check's status in each past report that has this cluster (by API URL), oldest first. */
export function stripOf(history: readonly Report[], apiUrl: string, id: AnyCheckId): Strip[] {
  return history.map((r) => {
    const c = r.clusters.find((x) => x.api_url === apiUrl);
    return { at: r.generated_at ?? '?', status: c ? (statusesOf(c).get(id) ?? null) : null };
  });
}

export function stripHtml(strip: readonly Strip[]): string {
  if (!strip.length) return '';
  // a class is only ever a status smdoctor knows: a kept report's other text is escaped into the title
  const cells = strip.map((s) =>
    isCheckStatus(s.status)
      ? `<i class="st-${s.status}" title="${esc(`${s.at}: ${STATUS_WORD[s.status]}`)}"></i>`
      : `<i class="none" title="${esc(`${s.at}: ${s.status === null ? 'not run' : `unknown status ${String(s.status)}`}`)}"></i>`,
  );
  return `<span class="strip" aria-label="last ${strip.length} runs, oldest first">${cells.join('')}</span>`;
}
