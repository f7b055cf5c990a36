import { existsSync } from "node:fs";
import { after, before } from "node:test";
import { type Browser, chromium, type Page } from "playwright-core";

/** Debian's chromium: the only browser these tests use (none is ever downloaded). */
export const CHROMIUM = "/usr/bin/chromium";

/** Why the browser tests cannot run here, or false when they can. Said out loud, never a silent pass. */
export const browserMissing: string | false = existsSync(CHROMIUM)
  ? false
  : `browser tests SKIPPED: Debian's chromium is not installed at ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`;
if (browserMissing) process.stderr.write(`\n*** ${browserMissing} ***\n\n`);

// Without the background-networking flags chromium keeps trying hosts this closed network refuses.
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** One headless chromium (with a fresh profile) for the whole file, closed after it. */
export function browserForSuite(): { browser: Browser } {
  const suite = {} as { browser: Browser };
  before(async () => {
    if (browserMissing) return;
    suite.browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  });
  after(() => suite.browser?.close());
  return suite;
}

/** A new page whose script errors fail the test that reads `errors`. */
export async function openPage(browser: Browser, url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(url);
  return { page, errors };
}
