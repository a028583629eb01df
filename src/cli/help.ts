/** What each command is for, as `--help` says it; a command's flags say the rest (args.ts). */
export const HELP = {
  smdoctor:
    'Agentless fleet doctor for search clusters: the known causes of "Error while parsing limits: Base user limit not found in index", checked in the vendor\'s troubleshooting order; the keyword-autocompletion migration',
  audit: 'read-only: gather, correlate, run the checks, print findings and the planned actions',
  fix: 'build the same plan as audit, then carry it out in order',
  migrate:
    'before enabling keyword autocompletion (the upgrade to 5.1): find the stored queries that need the text operator',
  'migrate explain': 'explain one query: its fields, macro trees, errors and replacement',
  'migrate jobs': 'replacement list for the queries of scheduled jobs',
  'migrate dashboards': 'replacement list for the queries of dashboard panels',
  export: 'write a reviewed plan for another tool to carry out',
  'export ansible': 'a playbook directory that ansible-playbook (and so AWX) runs exactly as fix would: pins first',
  pack: "check packs: your own checks beside the vendor's (docs/packs.md)",
  'pack validate': 'check pack and waivers files as audit loads them: every problem at file:line:col (exit 2)',
  'pack list': 'the checks audit runs with these packs, in order, and the packs that ship with smdoctor',
  lab: 'the local lab: an emulated cluster behind real OpenSSH servers (not a search engine)',
  'lab up': 'build and start the lab, print its inventory path',
  'lab status': 'nodes, roles, and whether each is up',
  'lab down': 'stop every process the lab started',
  inventory: 'the inventory as smdoctor resolves it, like ansible-inventory (secrets redacted)',
  diff: 'compare two JSON reports of audit or fix: per cluster and check, what regressed, what was fixed, what stayed (exit 1 on a regression)',
  serve:
    'read-only, long-running: audit every --interval over kept SSH connections; serve /metrics, /report.json, /report.html, /healthz',
  merge:
    'join the JSON reports of audit --shard K/N into the report one run over the whole inventory gives (same exit code)',
} as const;
