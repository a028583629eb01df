/**
 * `smdoctor export ansible`: a reviewed plan as a playbook directory that ansible-playbook runs exactly as fix would:
 * site.yml (smdoctor's own words only), files/cluster-N.json (pins, bodies and every value from outside),
 * files/hosts/<host>/<path> (the exact bytes of each edited file).
 */
import type { Action, Report } from '../model/index.ts';
import { stringifyJson } from '../base/json-text.ts';
import { fleetOf, type Fleet, type FleetRun } from '../reach/index.ts';
import { errText } from '../base/errors.ts';
import { redactText } from '../text/index.ts';
import { readEdit, type EditedFile } from './edits.ts';
import { editSrc } from './changes.ts';
import { clusterPlay, type ClusterPlay } from './playbook.ts';
import { renderSite } from './render.ts';
import { planSteps } from './steps.ts';
import { UnsafeText } from './tasks.ts';
import { VERSION } from '../base/version.ts';

export interface AnsibleExportOptions extends FleetRun {
  allowYellow: boolean;
  /** Shown in the header of site.yml. */
  planFile: string;
  /** The reviewed plan's digest, shown in the header too. */
  digest?: string;
}

/** A file of the playbook directory; `secret` ones are written owner-only. */
export interface OutFile {
  path: string;
  content: string | Buffer;
  secret?: boolean;
  /** A YAML file: what it must parse to (under YAML 1.1's line breaks), checked once written. */
  yaml?: unknown;
}

export type ExportOutcome = { ok: true; files: OutFile[]; steps: number } | { ok: false; problems: string[] };

/** The new bytes of every planned edit, read over SSH; every problem, not just the first. */
async function readEdits(
  plan: Report,
  o: AnsibleExportOptions,
  fleet: Fleet,
): Promise<{ edits: Map<Action, EditedFile>; problems: string[] }> {
  const edits = new Map<Action, EditedFile>();
  const problems: string[] = [];
  const byHost = new Map<string, Action[]>();
  for (const c of plan.clusters)
    for (const st of planSteps(c))
      if (st.action.type === 'set-yaml' || st.action.type === 'set-hosts')
        byHost.set(st.action.host, [...(byHost.get(st.action.host) ?? []), st.action]);
  await Promise.all(
    [...byHost].map(async ([host, actions]) => {
      if (!o.hosts.includes(host)) {
        problems.push(`${host}: the plan edits files there, but it is not in the inventory (or not selected)`);
        return;
      }
      try {
        const t = await fleet.transport(host);
        try {
          for (const a of actions) {
            if (a.type !== 'set-yaml' && a.type !== 'set-hosts') continue;
            const r = await readEdit(a, t);
            if (r.ok) edits.set(a, r.file);
            else problems.push(r.why);
          }
        } finally {
          await t.close();
        }
      } catch (err) {
        problems.push(`${host}: ${errText(err)}`);
      }
    }),
  );
  return { edits, problems: problems.map(redactText) };
}

export async function exportAnsible(plan: Report, o: AnsibleExportOptions): Promise<ExportOutcome> {
  const fleet = fleetOf(o);
  try {
    return await exportWith(plan, o, fleet);
  } finally {
    await fleet.close();
  }
}

async function exportWith(plan: Report, o: AnsibleExportOptions, fleet: Fleet): Promise<ExportOutcome> {
  const { edits, problems } = await readEdits(plan, o, fleet);
  if (problems.length) return { ok: false, problems };
  const groups = fleet.clusters;
  const plays: ClusterPlay[] = [];
  try {
    plan.clusters.forEach((c, i) => {
      const apiHost = groups.find((g) => g.apiUrl === c.api_url)?.hosts[0];
      // the playbook calls the API from the control node: a tunnel through SSH is not carried over
      if (apiHost && fleet.hosts.get(apiHost)!.apiViaSsh !== undefined)
        o.warn?.(
          `${c.api_url}: api_via_ssh is set, but the playbook calls the API directly from the control node: it must be reachable from there`,
        );
      if (planSteps(c).length && !apiHost) throw new UnsafeText(`no inventory host belongs to ${c.api_url}`);
      const p = clusterPlay(c, i + 1, {
        apiHost: apiHost ?? '',
        edits,
        timeout: o.timeout,
        allowYellow: o.allowYellow,
        source: { file: o.planFile, generated_at: plan.generated_at ?? null, version: plan.version },
      });
      if (p) plays.push(p);
    });
  } catch (err) {
    if (err instanceof UnsafeText || err instanceof Error) return { ok: false, problems: [redactText(err.message)] };
    throw err;
  }
  // smdoctor's own words only: the plan file's name and date are in files/cluster-N.json (plan.file, plan.generated_at)
  const header = [
    `Written by smdoctor ${VERSION} export ansible; the plan it came from: "plan" in files/cluster-N.json.`,
    ...(o.digest
      ? [`Plan digest ${o.digest}: re-derived from the live fleet at export, equal to the reviewed plan.`]
      : []),
    'Runs with ansible-core builtins only: ansible-playbook -i INVENTORY site.yml [--check --diff].',
    'Pins first: a drifted file, document, setting or node set fails the play before any change.',
    'The API password comes from the inventory (api_password_file, api_password_env, a vaulted api_password), never from here.',
  ];
  const files: OutFile[] = [{ path: 'site.yml', content: renderSite(header, plays), yaml: plays.map((p) => p.play) }];
  for (const p of plays) files.push({ path: `files/${p.data.name}`, content: `${stringifyJson(p.data.json, 2)}\n` });
  for (const [a, e] of edits)
    if (a.type === 'set-yaml' || a.type === 'set-hosts')
      files.push({ path: `files/${editSrc(a)}`, content: e.bytes, ...(e.secret ? { secret: true } : {}) });
  return { ok: true, files, steps: plays.reduce((n, p) => n + p.comments.length, 0) };
}
