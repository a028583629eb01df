/** Strings from hosts, the API and stored documents reach a terminal escaped: no window title, no rewritten line. */
import t from 'tap';
import { PassThrough } from 'node:stream';
import { progressLine, rollingProgress } from '../../../src/fix/progress.ts';
import { renderStoredText as storedText } from '../../../src/migrate/stored/output.ts';
import { renderExplainText as explainText } from '../../../src/migrate/render.ts';
import { findStored, storedConfig } from '../../../src/migrate/stored/find.ts';
import { clusterMacros, clusterMappings } from '../../../src/migrate/providers.ts';
import { explainWith } from '../../../src/migrate/explain.ts';
import { staticMacros, staticMappings } from '../../../src/migrate/providers.ts';
import { sayTo } from '../../../src/cli/context.ts';
import { confirm } from '../../../src/cli/prompt.ts';
import { fakeCluster, MAPPINGS } from '../../helpers/migrate/stored-fake.ts';
import { captureContext } from '../../helpers/cli.ts';

const HOSTILE = [
  '\x1b]0;owned\x07', // window title
  'ok\rALL GOOD', // rewrites the line
  '\x1b[2J\x1b[H', // clears the screen
  '\x1b[1A\x1b[2K', // climbs a line and erases it
  '\u009b31m', // C1 CSI
  '\u202eevil', // bidi override
];

/** Control characters left, but newlines and (on a terminal) smdoctor's own SGR colours. */
function raw(s: string, colours: boolean): string[] {
  const rest = colours ? s.replace(/\x1b\[\d+m/g, '') : s;
  return [...rest.matchAll(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g)].map((m) =>
    JSON.stringify(m[0]),
  );
}

t.test('fix progress: a cluster or node name from the API is shown, never obeyed', async (t) => {
  for (const h of HOSTILE) {
    const p = { node: `n1${h}`, phase: 'rejoin', elapsedMs: 3000 } as const;
    t.same(raw(progressLine(`c${h}`, p), false), [], JSON.stringify(h));
    const out = Object.assign(new PassThrough(), { isTTY: true });
    let seen = '';
    out.on('data', (d) => (seen += d));
    const r = rollingProgress(out);
    r.update(`c${h}`, p);
    r.clear();
    t.same(raw(seen.replaceAll('\r\x1b[K', ''), false), [], `terminal: ${JSON.stringify(h)}`);
  }
});

t.test('migrate jobs: a job id, a document id and a query reach the list escaped', async (t) => {
  for (const h of HOSTILE) {
    const api = fakeCluster({
      mappings: MAPPINGS,
      docs: {
        '.sm_jsc_jobs': {
          [`a${h}`]: { _meta: { id: `A${h}` }, query: `source logs-1 | search host=x${h}` },
          [`b${h}`]: { _meta: { id: `B${h}` }, query: `source logs-1 | search host="${h}` },
        },
      },
    });
    const f = await findStored(api, 'jobs', storedConfig({}), {
      mappings: clusterMappings(api),
      macros: clusterMacros(api),
    });
    t.equal(f.entries.length, 2);
    const warnings = [{ index: `.sm${h}`, doc_id: `d${h}`, message: `bad${h}` }];
    for (const tty of [false, true]) {
      const out = storedText('jobs', f.entries, warnings, { tty });
      t.same(raw(out, tty), [], `${JSON.stringify(h)} tty=${tty}`);
      t.match(out, /job A(ok)?\\(x1b|x0d|x9b|u202e)/, 'the job id is shown, escaped');
    }
  }
});

t.test('migrate explain: a query with control characters is shown escaped, carets under the right place', async (t) => {
  const sources = { mappings: staticMappings(MAPPINGS), macros: staticMacros([]) };
  for (const h of HOSTILE) {
    const { explanation: e, insertions } = await explainWith(
      `source logs-1 | search x${h}=1 host=a | search host="${h}`,
      sources,
    );
    for (const tty of [false, true]) t.same(raw(explainText(e, insertions, { tty }), tty), [], JSON.stringify(h));
  }
  const { explanation: e, insertions } = await explainWith('source logs-1 | search code=\x1b host=a', sources);
  const lines = explainText(e, insertions, { tty: false }).split('\n');
  const at = lines.findIndex((l) => l.includes('search code=\\x1b text host=a'));
  t.ok(at > 0, lines.join('\n'));
  t.equal(lines[at + 1]!.indexOf('^'), lines[at]!.indexOf('text'), 'the carets count the escaped width');
});

t.test('warnings, messages and questions on standard error are escaped', async (t) => {
  for (const h of HOSTILE) {
    const ctx = captureContext({ stdinTTY: true, stdin: 'n\n' });
    sayTo(ctx.stderr)(`warning: .sm_jsc_jobs/x${h}: bad json`);
    await confirm(ctx, false, `rewrite job x${h}? [y/N] `);
    t.same(raw(ctx.err(), false), [], JSON.stringify(h));
  }
});
