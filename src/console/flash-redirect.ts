/**
 * @module
 * Post-redirect-get with a one-time flash (`console/flash.ts`): `seeWith` answers a form post
 * with a 303 to the form's anchor, its message sealed in a cookie; `takeFlash` opens it on the page
 * and clears it, so the message (or the key shown once) appears once and a reload repeats nothing.
 */
import type { Context } from "hono";
import type { ConsoleApp } from "./app";
import {
  flashCookie,
  flashKey,
  flashValue,
  FLASH_MS,
  openFlash,
  sealFlash,
  type Flash,
} from "./flash";
import { operatorKey } from "./guard";
import { see } from "./render";

/** A 303 to `path#flash.at`, carrying `flash` to the page. */
export async function seeWith(c: Context<ConsoleApp>, path: string, flash: Flash) {
  const key = await flashKey((await operatorKey(c)).token);
  const value = await sealFlash(key, c.var.console.session.id, flash, Date.now());
  return see(c, `${path}#${flash.at}`, {
    "set-cookie": flashCookie(value, FLASH_MS / 1000, c.req.url),
  });
}

/** The request's flash, if any (then the answer clears its cookie). */
export async function takeFlash(c: Context<ConsoleApp>): Promise<Flash | null> {
  const value = flashValue(c.req.header("cookie"));
  if (value === undefined) return null;
  c.header("set-cookie", flashCookie("", 0, c.req.url), { append: true });
  const key = await flashKey((await operatorKey(c)).token);
  return openFlash(key, c.var.console.session.id, value, Date.now());
}
