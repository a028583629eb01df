/**
 * The batched read starts one process per file it reads (head), one grep to find the engine's process, and none per
 * plugin folder: a node has twenty or more plugins, and each used to cost a subshell, od and tr on the host. Run by
 * dash and by bash in a UTF-8 locale, with a PATH that holds nothing but a counting head and grep, so any other
 * program would fail and show.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batchCommand, batchPaths, folderFromHex, parseBatch } from '../../../src/audit/batch.ts';
import { layoutProbe } from '../../../src/audit/layout.ts';
import { descriptor, plantHost, type HostTree } from '../../helpers/audit/fakes.ts';

const TREE: HostTree = {
  engineYml: 'x: 1\n',
  plugins: {
    'analysis-icu': descriptor('analysis-icu'),
    café: descriptor('sm-sigma'),
    'a\nb': descriptor('sm-job-scheduler'),
    'q\'"\\$ *?': descriptor('odd'),
    bare: null,
  },
};

const run = (shell: string, command: string, env: NodeJS.ProcessEnv) =>
  new Promise<string>((resolve, reject) =>
    execFile(shell, ['-c', command], { env, encoding: 'latin1' }, (err, stdout, stderr) =>
      err ? reject(new Error(`${shell}: ${stderr}`)) : resolve(stdout),
    ),
  );

for (const shell of ['/bin/dash', '/bin/bash']) {
  t.test(`${shell}: every folder name exactly, one head per file read, no other program`, async (t) => {
    const root = t.testdir({});
    const cfg = plantHost(root, 'h1', TREE);
    const bin = join(root, 'bin');
    const log = join(root, 'ran');
    writeFileSync(log, '');
    // the only programs on PATH: each notes that it ran, then is the real one
    mkdirSync(bin);
    for (const tool of ['head', 'grep']) {
      const wrapper = join(bin, tool);
      writeFileSync(wrapper, `#!/bin/sh\necho ${tool} >> '${log}'\nexec /usr/bin/${tool} "$@"\n`);
      chmodSync(wrapper, 0o755);
    }
    const b = 'SMDOCTOR-test';
    const out = await run(shell, batchCommand(batchPaths(layoutProbe(cfg)), b), {
      PATH: bin,
      LANG: 'C.UTF-8',
    });
    const parsed = parseBatch(out, b);
    t.equal(parsed.complete, true, 'ran to its end');
    const plugins = parsed.sections.filter((s) => s.tag.startsWith('plugin '));
    t.same(
      plugins.map((s) => folderFromHex(s.tag.slice('plugin '.length)).name).sort(),
      Object.keys(TREE.plugins!).sort(),
      'each folder name, byte for byte',
    );
    const filesRead = parsed.sections.filter((s) => s.text !== null && s.tag !== 'layout').length;
    t.equal(filesRead, 5, 'the engine config and four descriptors');
    const ran = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    t.equal(ran.filter((p) => p === 'head').length, filesRead, 'one head per file read, nothing per folder');
    // a grep for the engine's and the web application's processes, and one per candidate process of this machine
    t.ok(ran.filter((p) => p === 'grep').length >= 2, 'the process scans');
    t.same([...new Set(ran)].sort(), ['grep', 'head'], 'no other program');
  });
}
