/** `migrate jobs|dashboards --format prometheus`: counts per cluster and kind, never per query or document. */
import type { StoredKind } from '../../migrate/stored/extract.ts';
import type { ClusterScan } from '../../migrate/stored/sources.ts';
import { exposition, runFamilies, type Family } from './exposition.ts';

export function renderMigratePrometheus(
  kind: StoredKind,
  scans: readonly ClusterScan[],
  o: { generatedAt: string; durationSeconds?: number },
): string {
  const fam = (name: string, help: string, value: (s: ClusterScan) => number | null): Family => ({
    name,
    help,
    type: 'gauge',
    samples: scans.flatMap((s) => {
      const v = value(s);
      return v === null ? [] : [{ labels: { api_url: s.target.api.url, kind }, value: v }];
    }),
  });
  // after --apply, a query rewritten is no longer to change
  const left = (s: ClusterScan) => s.found!.entries.filter((e) => s.results?.get(e)?.status !== 'applied');
  return exposition([
    fam(
      'smdoctor_migrate_queries_to_change',
      'Stored queries that need the text operator and that smdoctor can rewrite, per cluster and kind.',
      (s) => (s.found ? left(s).filter((e) => !e.manual).length : null),
    ),
    fam(
      'smdoctor_migrate_queries_to_review',
      'Stored queries a person must rewrite (a field from a macro, or errors), per cluster and kind.',
      (s) => (s.found ? left(s).filter((e) => e.manual).length : null),
    ),
    fam(
      'smdoctor_migrate_documents_unreadable',
      'Stored documents whose query could not be read, per cluster and kind.',
      (s) => (s.found ? s.found.warnings.length : null),
    ),
    fam('smdoctor_migrate_cluster_error', '1 when the cluster could not be read, per cluster and kind.', (s) =>
      s.error ? 1 : 0,
    ),
    ...runFamilies(`migrate-${kind}`, o.generatedAt, o.durationSeconds),
  ]);
}
