#!/usr/bin/env node
// Runs the compiled CLI in dist/ (`npm ci`, `npm pack` and `npm run build` write it; no transpiler at run time).
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // the most frequent probe of scripts and package managers answers without loading the argument parser
  const { VERSION } = await import('../dist/base/version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  const { main } = await import('../dist/cli/main.js');
  process.exitCode = await main(process.argv);
}
