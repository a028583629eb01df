import { chromium } from 'playwright-core';
const [file, out, sel] = process.argv.slice(2);
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const p = await b.newPage({ viewport: { width: 1400, height: 1000 } });
await p.goto('file://' + file);
if (sel) await p.locator(sel).first().scrollIntoViewIfNeeded();
await p.evaluate((s) => s && document.querySelector(s).scrollIntoView(), sel);
await p.screenshot({ path: out });
await b.close();
