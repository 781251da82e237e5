/**
 * Chromium for the browser tests: the system's (Debian's `chromium` package), driven by
 * playwright-core, which downloads no browser of its own. playwright-core is pinned to the minor
 * release built for the Chromium Debian ships (1.64: Chromium 156).
 */
import { accessSync, constants, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";

const DEFAULT_CHROMIUM = "/usr/bin/chromium";
const INSTALL_HINT =
  "Install Chromium to run the browser tests:\n" +
  "  Debian/Ubuntu:  sudo apt-get install -y chromium   (Ubuntu's package installs a snap; any Chromium or Chrome binary works)\n" +
  "  elsewhere:      install Chromium or Google Chrome and set CHROMIUM_PATH=/path/to/the/binary\n" +
  "then run `npm test` again (`.ci/run` installs it by itself when it runs as root).";

/**
 * The Chromium binary: `CHROMIUM_PATH`, else /usr/bin/chromium; throws with how to install it when
 * there is none.
 */
export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH?.trim();
  const path = fromEnv || DEFAULT_CHROMIUM;
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(
      `No Chromium at ${path}${fromEnv ? " (from CHROMIUM_PATH)" : ""}: the browser tests need one.\n${INSTALL_HINT}`,
    );
  }
  return path;
}

/** A headless Chromium. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  try {
    return await chromium.launch({ executablePath, headless: true, timeout: 120_000 });
  } catch (e) {
    throw new Error(
      `Chromium at ${executablePath} did not start: ${e instanceof Error ? e.message : String(e)}\n${INSTALL_HINT}`,
      { cause: e },
    );
  }
}

/** Where the screenshots go (.build/ is not committed). */
export const SCREENSHOTS = resolve(import.meta.dirname, "../../.build/screenshots");

/**
 * Saves a full-page screenshot as .build/screenshots/<name>.png, with `mask`ed elements blacked
 * out.
 */
export async function screenshot(page: Page, name: string, mask: Locator[] = []): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({
    fullPage: true,
    animations: "disabled",
    mask,
    path: join(SCREENSHOTS, `${name}.png`),
  });
}
