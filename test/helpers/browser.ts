/** Headless Chromium (Debian's `chromium`) for tests of the HTML report: a page opened from file://, every request seen. */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The browser binary, or null when none is installed (the test then skips and says so). */
export const chromiumPath = (): string | null => CANDIDATES.find((p): p is string => !!p && existsSync(p)) ?? null;

export async function launch(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  // root in a container has no user namespace for the sandbox; the page is our own file
  return chromium.launch({ executablePath: chromiumPath()!, args: ['--no-sandbox'] });
}

export interface Opened {
  page: Page;
  /** Every URL the page asked for, the file itself included. */
  requests: string[];
  /** Console errors (a Content-Security-Policy violation is one) and page errors. */
  errors: string[];
  /** alert(), confirm() or prompt() a hostile string managed to call. */
  dialogs: string[];
}

export async function open(
  browser: Browser,
  file: string,
  o: { javaScript?: boolean; colorScheme?: 'light' | 'dark'; width?: number; height?: number } = {},
): Promise<Opened> {
  const ctx = await browser.newContext({
    javaScriptEnabled: o.javaScript ?? true,
    colorScheme: o.colorScheme ?? 'light',
    viewport: { width: o.width ?? 1280, height: o.height ?? 900 },
  });
  // tsx compiles the test's page.evaluate callbacks with esbuild's __name helper, which the page does not have
  await ctx.addInitScript('globalThis.__name = (f) => f;');
  const page = await ctx.newPage();
  const out: Opened = { page, requests: [], errors: [], dialogs: [] };
  page.on('request', (r) => out.requests.push(r.url()));
  page.on('console', (m) => void (m.type() === 'error' && out.errors.push(m.text())));
  page.on('pageerror', (e) => out.errors.push(e.message));
  page.on('dialog', (d) => {
    out.dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return out;
}

/** Screenshots go under the tap output directory (.tap/screenshots), kept after the run for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = join(process.cwd(), '.tap', 'screenshots');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

export const fileUrl = (file: string): string => pathToFileURL(file).href;
