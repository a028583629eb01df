/**
 * The layers of src/, enforced by `npm run boundaries` (part of `npm test`). Imports point down only:
 *
 *   cli/                                         commands, prompts, exit codes; the only importer of lab/
 *   report/  export/                             text, json, junit, markdown; a reviewed plan as an Ansible playbook
 *   fix/  migrate/                               the plan carried out; the keyword-autocompletion migration
 *   audit/  checks/                              gather, correlate, the five checks (audit/deps.ts wires checks in)
 *   reach/                                       how audit, fix and migrate reach a fleet: one fleet session opens and
 *                                                closes hosts and cluster clients; maps inventory hosts onto
 *                                                transport's SshTarget and cluster's ApiTarget, applies OpenSSH config
 *   inventory/  transport/  cluster/  sml/       independent of each other
 *   src/*.ts  yamledit/  model/                  errors, secrets, version, backups, hashing, YAML editing; the facts,
 *                                                plan and report types every layer shares
 *
 * lab/ is a tool beside them (an emulated cluster for the demo and tests): it may use the layers, only cli/ uses it.
 * src/index.ts is the public API: anything but cli/ and lab/.
 */
const L = {
  base: '^src/([^/]+\\.ts|yamledit/|model/)',
  bottom: '^src/(inventory|transport|cluster|sml)/',
  reach: '^src/reach/',
  audit: '^src/(audit|checks)/',
  feature: '^src/(fix|migrate)/',
  report: '^src/report/',
  export: '^src/export/',
  cli: '^src/cli/',
  lab: '^src/lab/',
};
const above = {
  base: '^src/(inventory|transport|cluster|sml|reach|audit|checks|fix|migrate|report|export|cli|lab)/',
  bottom: '^src/(reach|audit|checks|fix|migrate|report|export|cli|lab)/',
  reach: '^src/(audit|checks|fix|migrate|report|export|cli|lab)/',
  audit: '^src/(fix|migrate|report|export|cli|lab)/',
  feature: '^src/(report|export|cli|lab)/',
  report: '^src/(export|cli|lab)/',
  export: '^src/(report|cli|lab)/',
};
const down = (layer, pathNot) => ({
  name: `${layer}-points-down`,
  comment: `${layer} may import only lower layers`,
  severity: 'error',
  from: { path: L[layer], pathNot: layer === 'base' ? ['^src/index\\.ts$', ...(pathNot ?? [])] : pathNot },
  to: { path: above[layer] },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'a cycle makes two modules one',
      from: {},
      to: { circular: true },
    },
    down('base'),
    down('bottom'),
    down('reach'),
    down('audit'),
    down('feature'),
    down('report'),
    down('export'),
    {
      name: 'lab-only-from-cli',
      comment: 'the lab is a tool of the project, not part of the product: only cli/ starts it',
      severity: 'error',
      from: { pathNot: ['^src/(cli|lab)/', '^test/', '^scripts/'] },
      to: { path: L.lab },
    },
    {
      name: 'bottom-independent',
      comment: 'inventory, transport, cluster and sml know nothing of each other',
      severity: 'error',
      from: { path: '^src/(inventory|transport|cluster|sml)/' },
      to: { path: '^src/(inventory|transport|cluster|sml)/', pathNot: '$1' },
    },
    {
      name: 'checks-wired-in-once',
      comment: 'checks build on the facts (model/, audit/roles); audit reaches checks only through its wiring',
      severity: 'error',
      from: { path: '^src/audit/', pathNot: '^src/audit/deps\\.ts$' },
      to: { path: '^src/checks/' },
    },
    {
      name: 'only-reach-opens',
      comment:
        'audit, fix, the migration and export reach hosts and clusters through one fleet session (reach/fleet.ts): ' +
        'only reach/ opens SSH sessions, jump routes, tunnels and REST clients, and chooses the tunnel hosts',
      severity: 'error',
      from: { path: '^src/(audit|checks|fix|migrate|export|report)/' },
      to: {
        path: [
          '^src/transport/(index|ssh|local|jump-pool|proxy-command|ssh-auth|host-key|known-hosts)\\.ts$',
          '^src/cluster/(client|ssh-tunnel|tunnel-hosts)\\.ts$',
          '^src/reach/(deps|targets|tunnel|ssh-access)\\.ts$',
        ],
      },
    },
    {
      name: 'features-apart',
      comment: 'fix and the migration are independent features',
      severity: 'error',
      from: { path: '^src/(fix|migrate)/' },
      to: { path: '^src/(fix|migrate)/', pathNot: '^src/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
