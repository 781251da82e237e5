/**
 * @module
 * `/Customers`: list with filters and paging, create, get, JSON Patch, delete. Each handler reads the
 * request, makes one call to the client's data object, and shapes the answer.
 */
import { Hono, type Context } from "hono";
import { JsonPatch } from "../../../src/lib/v2/json-patch";
import { clientOf, type SandboxApp } from "../app";
import { readJson } from "../lib/body";
import { problemResponse, schemaProblem, type Result } from "../lib/problem";
import { pagingOf, paginationHeader, queryOf } from "../lib/query";
import { requirePrivilege } from "./guards";

const READ = requirePrivilege("Customer", "Customer_Full");
const WRITE = requirePrivilege("Customer_Full");

function data(c: Context<SandboxApp>) {
  return clientOf(c.env, c.get("environment"), c.get("clientId"));
}

/** The `{id}` of the path as an int64, or a 400 ProblemDetails as ASP.NET's model binding answers. */
function idOf(c: Context<SandboxApp>): Result<number> {
  const raw = c.req.param("id") ?? "";
  return /^\d{1,15}$/.test(raw)
    ? { ok: true, value: Number(raw) }
    : { ok: false, problem: { status: 400, title: "One or more validation errors occurred.", errors: { id: [`The value '${raw}' is not valid.`] } } };
}

function answer<T>(r: Result<T>, ok: (value: T) => Response): Response {
  return r.ok ? ok(r.value) : problemResponse(r.problem);
}

export const customerRoutes = new Hono<SandboxApp>()
  .get("/", READ, async (c) => {
    const url = new URL(c.req.url);
    const q = queryOf(url);
    const paging = pagingOf(q);
    if (!paging.ok) return problemResponse(paging.problem);
    // RPC typing cannot see through `unknown` inside the DTOs; the shape is the method's own.
    const page = (await data(c).listCustomers([...q], paging.value)) as Result<{ items: unknown[]; total: number }>;
    return answer(page, ({ items, total }) =>
      items.length === 0 ? c.body(null, 204) : c.json(items, 200, { "x-pagination": paginationHeader(url, paging.value, total) }),
    );
  })
  .post("/", WRITE, async (c) => {
    const body = await readJson(c.req.raw, "json");
    if (!body.ok) return problemResponse(body.problem);
    return answer(await data(c).createCustomer(body.value), (dto) => c.json(dto, 201));
  })
  .get("/:id", READ, async (c) => {
    const id = idOf(c);
    if (!id.ok) return problemResponse(id.problem);
    return answer(await data(c).getCustomer(id.value), (dto) => c.json(dto));
  })
  .patch("/:id", WRITE, async (c) => {
    const id = idOf(c);
    if (!id.ok) return problemResponse(id.problem);
    const body = await readJson(c.req.raw, "json-patch");
    if (!body.ok) return problemResponse(body.problem);
    const patch = JsonPatch.safeParse(body.value);
    if (!patch.success) return problemResponse(schemaProblem(patch.error, "patch"));
    return answer(await data(c).patchCustomer(id.value, patch.data), (dto) => c.json(dto));
  })
  .delete("/:id", WRITE, async (c) => {
    const id = idOf(c);
    if (!id.ok) return problemResponse(id.problem);
    return answer(await data(c).deleteCustomer(id.value), () => c.body(null, 200));
  });
