/**
 * The layers of src/, enforced by `npm run boundaries` (part of `npm test`). Imports point down only:
 *
 *   cli/                                         commands, prompts, exit codes
 *   serve/                                       long-running audit: kept connections, cycles, HTTP endpoints
 *   report/  export/                             text, json, junit, markdown; a reviewed plan as an Ansible playbook
 *   fix/  migrate/                               the plan carried out; the keyword-autocompletion migration
 *   audit/  checks/  packs/                      gather, correlate, the checks (audit/deps.ts wires checks in); check
 *                                                packs: their reads joined to audit's, judging, remedies as actions
 *   reach/                                       how audit, fix and migrate reach a fleet: one fleet session opens and
 *                                                closes hosts and cluster clients; maps inventory hosts onto
 *                                                transport's SshTarget and cluster's ApiTarget, applies OpenSSH config;
 *                                                -v tracing of connections and requests
 *   facts/                                       what audit, the checks, fix and export all read the same way: node
 *                                                roles, engine YAML, the fix lease, an audit's exit code. Pure
 *   inventory/  transport/  cluster/  sml/       independent of each other
 *   text/  yamledit/  model/                     text made safe (escaping, redaction); YAML editing; the facts, plan
 *                                                and report types every layer shares
 *   base/                                        errors, deadlines, limits, run scope, hashing, backups, version: the
 *                                                floor, importing nothing of src/
 *
 * No folder of the house imports a folder that imports it back, even where a layer allows both (no-folder-cycles).
 *
 * src/index.ts is the public API (anything but cli/), and the only file at the root of src/.
 *
 * Tests come in three tiers (CONTRIBUTING.md): test/unit/ starts nothing (no process, no socket; test/unit.ts also
 * refuses both at run time), test/integration/ and test/e2e/ start sshd, the lab, real tools. lab/test/ the same.
 *
 * One import path per symbol: a module exports only what it declares (no `export … from`), except a barrel (a folder's
 * index.ts), which exports from its own folder and is then the only way into that folder from outside: text/, sml/,
 * yamledit/, model/, checks/, packs/ and reach/. A folder without an index.ts is entered file by file. src/index.ts,
 * the package's face, re-exports from anywhere.
 *
 * The lab (an emulated cluster for the demo and tests) is a package beside the product, the lab/ workspace
 * (@smdoctor/lab): src/ never imports it (cli/ loads it by name when a command needs it), and it uses smdoctor only
 * through the package's public entry, `import … from 'smdoctor'`.
 */
const L = {
  base: '^src/(base|text|yamledit|model)/',
  bottom: '^src/(inventory|transport|cluster|sml)/',
  facts: '^src/facts/',
  reach: '^src/reach/',
  audit: '^src/(audit|checks|packs)/',
  feature: '^src/(fix|migrate)/',
  report: '^src/report/',
  export: '^src/export/',
  serve: '^src/serve/',
  cli: '^src/cli/',
};
const above = {
  base: '^src/(inventory|transport|cluster|sml|facts|reach|audit|checks|packs|fix|migrate|report|export|serve|cli)/',
  bottom: '^src/(facts|reach|audit|checks|packs|fix|migrate|report|export|serve|cli)/',
  // facts/ needs nothing of the bottom layers either: it reads the plain data they produced
  facts: '^src/(inventory|transport|cluster|sml|reach|audit|checks|packs|fix|migrate|report|export|serve|cli)/',
  reach: '^src/(audit|checks|packs|fix|migrate|report|export|serve|cli)/',
  audit: '^src/(fix|migrate|report|export|serve|cli)/',
  feature: '^src/(report|export|serve|cli)/',
  report: '^src/(export|serve|cli)/',
  export: '^src/(report|serve|cli)/',
  serve: '^src/cli/',
};
const down = (layer, pathNot) => ({
  name: `${layer}-points-down`,
  comment: `${layer} may import only lower layers`,
  severity: 'error',
  from: { path: L[layer], pathNot },
  to: { path: above[layer] },
});

// anything at the root of src/ but the public entry
const ROOT_FILE = '^src/(?!index\\.ts$)[^/]+$';
const UNIT = '^(lab/)?test/unit/';
// what starts a process or a socket: node's modules, the libraries that spawn or connect, the lab, and the test
// helpers built on them
const STARTERS = [
  '^(node:)?(child_process|net|http|https|http2|tls|dgram|cluster)$',
  '^(node_modules/)?(execa|zx|ssh2|playwright-core)(/|$)',
  '^lab/src/(index|tls|netns|control|net|lifecycle|runtime|sshd|engine-process|nodefacts)\\.ts$',
  '^lab/src/(api/(http|server)|front/(server|start))\\.ts$',
  '^lab/test/helpers/',
  '^test/helpers/(sshd|lab|lab-api|processes|browser|promtool|hostile|reviewed-plan|unit-guard|shells|serve)\\.ts$',
  '^test/helpers/(audit/local-sh|fix/rolling|export/ansible|packs/lab|lines/line|inventory/ansible(-cases)?)\\.ts$',
];

// a folder whose index.ts is the only way in from outside it
const barrel = (folder, what) => ({
  name: `only-through-${folder}-index`,
  comment: `${what}: outside ${folder}/, import it from ${folder}/index.ts, never a file behind it`,
  severity: 'error',
  from: { path: '^src/', pathNot: `^src/${folder}/` },
  to: { path: `^src/${folder}/`, pathNot: `^src/${folder}/index\\.ts$` },
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
    {
      name: 'no-folder-cycles',
      comment:
        'a back arrow between two folders (a imports b, b imports a) makes them one layer: move what the lower one ' +
        "needs into it (packs/' kinds and engines meet through their registries, ordered by the packs-* rules)",
      severity: 'error',
      scope: 'folder',
      from: { path: '^(lab/)?src/', pathNot: '^src/packs/.' },
      to: { circular: true },
    },
    {
      name: 'base-is-the-floor',
      comment: 'base/ is the floor of the house: text/, yamledit/ and model/ build on it, never the other way',
      severity: 'error',
      from: { path: '^src/base/' },
      to: { path: '^src/(text|yamledit|model)/' },
    },
    down('base'),
    down('bottom'),
    down('facts'),
    down('reach'),
    down('audit'),
    down('feature'),
    down('report'),
    down('export'),
    down('serve'),
    {
      name: 'no-lab-in-the-product',
      comment:
        'the lab is a package beside the product, not part of it: src/ loads it only by name (cli/lab-package.ts)',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^lab/' },
    },
    {
      name: 'lab-through-the-public-api',
      comment: "the lab uses smdoctor as any tool would, through `import … from 'smdoctor'` (src/index.ts)",
      severity: 'error',
      from: { path: '^lab/src/' },
      to: { path: '^src/' },
    },
    {
      name: 'bottom-independent',
      comment: 'inventory, transport, cluster and sml know nothing of each other',
      severity: 'error',
      from: { path: L.bottom },
      to: { path: L.bottom, pathNot: '$1' },
    },
    {
      name: 'audit-entry-only',
      comment:
        'above audit, only the command line runs an audit, through its entries (runAudit, the audit session); the rest is internal',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/audit/', pathNot: '^src/audit/(run|session)\\.ts$' },
    },
    {
      name: 'commands-apart',
      comment:
        'a command file imports no other: what two commands share lives beside them in cli/ or below (audit/session.ts)',
      severity: 'error',
      from: { path: '^src/cli/commands/' },
      to: { path: '^src/cli/commands/' },
    },
    {
      name: 'no-audit-internals',
      comment: 'fix, migrate, report and export share with audit only what lies below both (facts/, reach/, model/)',
      severity: 'error',
      from: { path: [L.feature, L.report, L.export] },
      to: { path: L.audit },
    },
    {
      name: 'checks-below-audit',
      comment: 'a check is a pure function of the gathered facts: it reads facts/ and model/, never how audit gathers',
      severity: 'error',
      from: { path: '^src/checks/' },
      to: { path: '^src/audit/' },
    },
    {
      name: 'packs-below-audit',
      comment:
        'a pack is judged over the gathered facts like a check: packs/ reads facts/, model/ and yamledit/, never how audit gathers, nor the vendor checks',
      severity: 'error',
      from: { path: '^src/packs/' },
      to: { path: '^src/(audit|checks|reach)/' },
    },
    // packs/ inside: load/ (YAML to a Pack), read/ (a source's value), judge/ (matchers over values, findings, remedies),
    // and the registries sources/ and matchers/, one module per kind, which the three reach only through registry.ts
    {
      name: 'packs-load-reads-nothing',
      comment: 'loading a pack reads no node and judges nothing: load/ never imports read/ or judge/',
      severity: 'error',
      from: { path: '^src/packs/load/' },
      to: { path: '^src/packs/(read|judge)/' },
    },
    {
      name: 'packs-read-judges-nothing',
      comment: 'reading a value judges nothing and loads nothing: read/ never imports judge/ or load/',
      severity: 'error',
      from: { path: '^src/packs/read/' },
      to: { path: '^src/packs/(judge|load)/' },
    },
    {
      name: 'packs-judge-loads-nothing',
      comment: 'judging works on a loaded pack: judge/ never imports load/',
      severity: 'error',
      from: { path: '^src/packs/judge/' },
      to: { path: '^src/packs/load/' },
    },
    {
      name: 'packs-kinds-through-registry',
      comment: 'a source or matcher module is reached through its registry.ts, so a kind is added in one line',
      severity: 'error',
      from: { path: '^src/packs/', pathNot: '^src/packs/(sources|matchers)/' },
      to: { path: '^src/packs/(sources|matchers)/', pathNot: '^src/packs/(sources|matchers)/(registry|kind)\\.ts$' },
    },
    {
      name: 'packs-kinds-below-their-engines',
      comment:
        'a kind module uses the helpers of load/, read/ and judge/, never their entry points (which use the registries)',
      severity: 'error',
      from: { path: '^src/packs/(sources|matchers)/' },
      to: {
        path: '^src/packs/(load/(load|load-pack)|read/(sources-read|needs|gather-host)|judge/(judge|judge-all|matchers))\\.ts$',
      },
    },
    {
      name: 'packs-sources-judge-nothing',
      comment: 'a source module reads a value; matchers judge it',
      severity: 'error',
      from: { path: '^src/packs/sources/' },
      to: { path: '^src/packs/(matchers|judge)/' },
    },
    {
      name: 'checks-wired-in-once',
      comment: 'checks build on the facts (model/, facts/); audit reaches checks only through its wiring',
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
      from: { path: [L.audit, L.feature, L.report, L.export] },
      to: {
        path: [
          '^src/transport/(connect|ssh|local|jump-pool|proxy-command|ssh-auth|host-key|known-hosts)\\.ts$',
          '^src/cluster/(client|ssh-tunnel|tunnel-hosts)\\.ts$',
        ],
      },
    },
    {
      name: 'src-root-holds-only-index',
      comment: 'the root of src/ holds only index.ts (the public API): everything else lives in a named folder',
      severity: 'error',
      from: { path: ROOT_FILE },
      to: {},
    },
    {
      name: 'nothing-at-src-root',
      comment: 'the root of src/ holds only index.ts: put the file in base/, text/ or the layer it belongs to',
      severity: 'error',
      from: {},
      to: { path: ROOT_FILE },
    },
    {
      name: 'no-orphan-at-src-root',
      comment: 'the root of src/ holds only index.ts, even for a file nothing imports yet',
      severity: 'error',
      from: { orphan: true, path: ROOT_FILE },
      to: {},
    },
    {
      name: 'unit-tier-starts-nothing',
      comment:
        'test/unit/ starts no process and opens no socket: move a test that needs sshd, the lab or a tool to ' +
        'test/integration/ (or test/e2e/ for ansible-playbook, npm packaging, the browser)',
      severity: 'error',
      // the one exception: the test of the guard itself calls spawn and listen to see them refused
      from: { path: UNIT, pathNot: '^test/unit/tiers/tiers\\.test\\.ts$' },
      to: { path: STARTERS },
    },
    {
      name: 'tiers-apart',
      comment: 'a test file stands alone: shared code lives in test/helpers/ (or lab/test/helpers/)',
      severity: 'error',
      from: { path: '^(lab/)?test/(unit|integration|e2e)/' },
      to: { path: '^(lab/)?test/(unit|integration|e2e)/' },
    },
    {
      name: 'no-re-exports',
      comment: 'one import path per symbol: a module exports what it declares; only a barrel (index.ts) re-exports',
      severity: 'error',
      from: { path: '^(src|lab/src)/', pathNot: '(^|/)index\\.ts$' },
      to: { dependencyTypes: ['export'] },
    },
    {
      name: 'barrel-of-its-folder',
      comment:
        "a barrel re-exports its own folder's modules, not another folder's (src/index.ts, the package's face, may)",
      severity: 'error',
      from: { path: '^((?:lab/)?src/.+/)index\\.ts$' },
      to: { dependencyTypes: ['export'], pathNot: '^$1' },
    },
    barrel('text', 'text made safe for where it goes (terminals, Markdown, HTML, logs)'),
    barrel('sml', 'the SML analysis'),
    barrel('yamledit', 'comment-keeping YAML reads and edits'),
    barrel('model', 'the types every layer shares'),
    barrel('checks', 'the checks (audit wires them in through deps.ts)'),
    barrel('packs', 'check packs'),
    barrel('reach', 'how a fleet is reached (one fleet session)'),
    {
      name: 'features-apart',
      comment: 'fix and the migration are independent features',
      severity: 'error',
      from: { path: L.feature },
      to: { path: L.feature, pathNot: '^src/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(lab/)?dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
