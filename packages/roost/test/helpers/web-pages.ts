import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { TestDaemon } from "./daemon.js";

/** A browser context of its own (its own cookie) at this size, on the printed address, once live. */
export async function openFleet(
  browser: Browser,
  url: string,
  size = { width: 1280, height: 800 },
): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const context = await browser.newContext({ viewport: size });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(url);
  assert.equal(new URL(page.url()).search, "", "the token left the address");
  await page.locator(".status", { hasText: "live" }).waitFor();
  return { page, context, errors };
}

/** `roost dispatch PROFILE [TASK] --name NAME`: the new job's id. */
export async function dispatchNamed(
  daemon: TestDaemon,
  profile: string,
  name: string,
  task?: string,
): Promise<string> {
  const { stdout, code, stderr } = await daemon.cli([
    "dispatch",
    profile,
    ...(task ? [task] : []),
    "--name",
    name,
    "--json",
  ]);
  assert.equal(code, 0, stderr);
  return (JSON.parse(stdout) as { id: string }).id;
}

/** The list's row of the session named so. */
export const rowOf = (page: Page, name: string) =>
  page.locator(".row", { has: page.locator(".name", { hasText: new RegExp(`^${name}$`) }) });
