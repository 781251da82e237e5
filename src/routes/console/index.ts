/**
 * @module
 * The operator console at `/console`: server-rendered pages (Hono JSX) and plain HTML forms, no
 * script. Mounted by `src/index.ts`; its routes are declared in `contract.ts` like every other
 * route.
 */
import { orderRoutes } from "./order-routes";
import { requestRoutes } from "./request-routes";
import { consoleRouter } from "./router";
import { sessionRoutes } from "./session-routes";
import { tenantRoutes } from "./tenant-routes";

/** The console's router, every page and form on it. */
export const consoleRoutes = requestRoutes(
  orderRoutes(tenantRoutes(sessionRoutes(consoleRouter()))),
);
