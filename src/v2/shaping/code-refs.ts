/**
 * @module
 * Codes for ids: the references a caller may give by Code or Number where the API wants the Id
 * (only those a list filter can look up), and the resolver. Pure but for its `CodeDeps`.
 */
import type { FieldError } from "../../kernel/problem";
import { boundedRuns } from "./bounded-runs";

/** Where a code is looked up: `GET {list}?{filter}=A,B[&{fixed}]&Fields=Id,{match}`. */
export interface Target {
  /** The lookup's name, also the cache's kind. */
  kind: string;
  list: string;
  filter: string;
  /** The property the code is compared with. */
  match: string;
  /** `number`: a whole number; `code`: a string matched in any casing. */
  value: "code" | "number";
  /** A filter every lookup of this kind adds (a custom dimension's ordinal). */
  fixed?: string;
  noun: string;
}

export interface CodeRef {
  code: string;
  id: string;
  target: Target;
}

const t = (
  kind: string,
  list: string,
  filter: string,
  match: string,
  value: Target["value"],
  noun: string,
  fixed?: string,
): Target => ({ kind, list, filter, match, value, noun, ...(fixed ? { fixed } : {}) });
const DEPARTMENT = t("Department", "/Departments", "codes", "Code", "code", "department");
const PROJECT = t("Project", "/Projects", "projectCodes", "Code", "code", "project");
const PRODUCT = t("Product", "/Products", "codes", "Code", "code", "product");
const PRODUCT_GROUP = t("ProductGroup", "/ProductGroups", "codes", "Code", "code", "product group");
const LOCATION = t("Location", "/Locations", "codes", "Code", "code", "location");
const dim = (n: 1 | 2 | 3) =>
  t(
    `Dim${n}`,
    "/CustomDimensions",
    "codes",
    "Code",
    "code",
    `dimension ${n} value`,
    `ordinal=${n}`,
  );
const CUSTOMER = t("Customer", "/Customers", "customerNos", "Number", "number", "customer");
const SUPPLIER = t("Supplier", "/Suppliers", "supplierNos", "Number", "number", "supplier");
const EMPLOYEE = t("Employee", "/Employees", "employeeNos", "Number", "number", "employee");
const ACCOUNT = t(
  "GeneralLedgerAccount",
  "/GeneralLedgerAccounts",
  "accountNos",
  "AccountNo",
  "number",
  "general ledger account",
);

/** The table: code field → Id field → lookup. Each code field appears once. */
export const CODE_REFS: readonly CodeRef[] = [
  { code: "DepartmentCode", id: "DepartmentId", target: DEPARTMENT },
  { code: "ProjectCode", id: "ProjectId", target: PROJECT },
  { code: "ParentProjectCode", id: "ParentProjectId", target: PROJECT },
  { code: "ProductCode", id: "ProductId", target: PRODUCT },
  { code: "ProductGroupCode", id: "ProductGroupId", target: PRODUCT_GROUP },
  { code: "LocationCode", id: "LocationId", target: LOCATION },
  { code: "Dim1Code", id: "Dim1Id", target: dim(1) },
  { code: "Dim2Code", id: "Dim2Id", target: dim(2) },
  { code: "Dim3Code", id: "Dim3Id", target: dim(3) },
  { code: "CustomerNo", id: "CustomerId", target: CUSTOMER },
  { code: "SupplierNo", id: "SupplierId", target: SUPPLIER },
  { code: "EmployeeNo", id: "EmployeeId", target: EMPLOYEE },
  { code: "SalesPersonEmployeeNumber", id: "SalesPersonEmployeeId", target: EMPLOYEE },
  { code: "SellersReferenceEmployeeNo", id: "SellersReferenceEmployeeId", target: EMPLOYEE },
  { code: "ManagerEmployeeNo", id: "ManagerEmployeeId", target: EMPLOYEE },
  { code: "ProjectManagerEmployeeNo", id: "ProjectManagerEmployeeId", target: EMPLOYEE },
  { code: "AccountNo", id: "AccountId", target: ACCOUNT },
  { code: "StandardSalesAccount", id: "StandardSalesAccountId", target: ACCOUNT },
  { code: "OptionalSalesAccount", id: "OptionalSalesAccountId", target: ACCOUNT },
  { code: "BalanceAccountNo", id: "BalanceAccountId", target: ACCOUNT },
  { code: "ResultAccountNo", id: "ResultAccountId", target: ACCOUNT },
];

/**
 * The kinds whose codes a write to `path` may change: those looked up in its first segment's list.
 *
 * @example kindsListedAt("/customdimensions/3") // ["Dim1", "Dim2", "Dim3"]
 */
export function kindsListedAt(path: string): string[] {
  const resource = `/${(path.split("/")[1] ?? "").toLowerCase()}`;
  const kinds = CODE_REFS.filter((r) => r.target.list.toLowerCase() === resource).map(
    (r) => r.target.kind,
  );
  return [...new Set(kinds)];
}

/** One code in a body: its holder (swapped in place), its path, key and spelling. */
export interface Site {
  holder: Record<string, unknown>;
  ref: CodeRef;
  path: string;
  key: string;
  spelling: string;
}

export const siteKey = (kind: string, code: string) => `${kind}\u0000${code}`;

/** A code as the cache files it: the lookup's kind and the code normalized (`codeKey`). */
export interface CodeKey {
  kind: string;
  code: string;
}
export interface CodeId extends CodeKey {
  id: number;
}

/** The lookup's answer: the rows of a 200 (none for a 204), or the API's refusal to pass back. */
export type LookupAnswer = { ok: true; rows: unknown[] } | { ok: false; response: Response };

export interface CodeDeps {
  recall(keys: CodeKey[]): Promise<CodeId[]>;
  lookup(target: Target, codes: string[]): Promise<LookupAnswer>;
  remember(found: CodeId[]): Promise<void>;
}

/** The sites swapped (`cached`: the codes the cache answered), unknown codes, or a refusal. */
export type Resolution =
  | { kind: "done"; cached: CodeKey[] }
  | { kind: "unknown"; errors: FieldError[] }
  | { kind: "refused"; response: Response };

/** Most distinct codes one body may name (counted before the cache is asked). */
export const MAX_CODES_PER_BODY = 500;

/** Lookups of one body in flight at once: more would only queue at the governor. */
export const LOOKUPS_IN_FLIGHT = 4;

/** A valid id of every Id field, standing in for a code while its body is checked. */
const PLACEHOLDER_ID = 1;

export function distinctCodes(sites: readonly Site[]): number {
  return new Set(sites.map((s) => siteKey(s.ref.target.kind, s.key))).size;
}

/** Puts a placeholder id where each code was (in place), so the body is checked before lookups. */
export function placeholderIds(sites: readonly Site[]): void {
  for (const s of sites) {
    Reflect.deleteProperty(s.holder, s.ref.code);
    s.holder[s.ref.id] = PLACEHOLDER_ID;
  }
}

/** Most codes in one lookup: keeps its URL well under the API's ~2000 characters. */
export const MAX_CODES_PER_LOOKUP = 50;
const MAX_FILTER_CHARS = 1200;

/** @example lookupSearch(DEPARTMENT, ["A", "B"]) // "?codes=A%2CB&Fields=Id%2CCode&PageSize=2" */
export function lookupSearch(target: Target, codes: string[]): string {
  const q = new URLSearchParams({ [target.filter]: codes.join(",") });
  if (target.fixed) {
    const [name = "", value = ""] = target.fixed.split("=");
    q.set(name, value);
  }
  q.set("Fields", `Id,${target.match}`);
  q.set("PageSize", String(Math.max(1, codes.length)));
  return `?${q.toString()}`;
}

export function lookupBatches(codes: string[]): string[][] {
  const batches: string[][] = [];
  let batch: string[] = [];
  let size = 0;
  for (const code of codes) {
    const len = encodeURIComponent(code).length + 3;
    if (
      batch.length > 0 &&
      (batch.length >= MAX_CODES_PER_LOOKUP || size + len > MAX_FILTER_CHARS)
    ) {
      batches.push(batch);
      batch = [];
      size = 0;
    }
    batch.push(code);
    size += len;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * Swaps every site's code for its Id, in place: the cache first, then lookups per kind. A lookup
 * that throws or is refused decides the answer; otherwise every unknown code is named.
 */
export async function resolveSites(sites: Site[], deps: CodeDeps): Promise<Resolution> {
  if (sites.length === 0) return { kind: "done", cached: [] };
  const wanted = new Map<string, { target: Target; spellings: Map<string, string> }>();
  for (const s of sites) {
    const entry = wanted.get(s.ref.target.kind) ?? {
      target: s.ref.target,
      spellings: new Map<string, string>(),
    };
    if (!entry.spellings.has(s.key)) entry.spellings.set(s.key, s.spelling);
    wanted.set(s.ref.target.kind, entry);
  }
  const keys = [...wanted.values()].flatMap((w) =>
    [...w.spellings.keys()].map((code) => ({ kind: w.target.kind, code })),
  );
  const ids = new Map((await deps.recall(keys)).map((c) => [siteKey(c.kind, c.code), c.id]));
  const cached = keys.filter((k) => ids.has(siteKey(k.kind, k.code)));
  const asks = [...wanted.values()].flatMap((w) => {
    const missing = [...w.spellings]
      .filter(([key]) => !ids.has(siteKey(w.target.kind, key)))
      .map(([, spelling]) => spelling);
    return lookupBatches(missing).map((codes) => ({ target: w.target, codes }));
  });
  const runs = await boundedRuns(
    asks,
    LOOKUPS_IN_FLIGHT,
    async (a) => ({ ...a, answer: await deps.lookup(a.target, a.codes) }),
    (a) => !a.answer.ok,
  );
  const refusals = runs.results.flatMap((a) => (a.answer.ok ? [] : [a.answer.response]));
  if (runs.thrown || refusals.length > 0) {
    // One answer decides the body; the other refusals' bodies are never read.
    for (const extra of refusals.slice(runs.thrown ? 0 : 1)) void extra.body?.cancel();
    if (runs.thrown) throw runs.thrown.error;
    return { kind: "refused", response: refusals[0] as Response };
  }
  const found: CodeId[] = [];
  for (const { target, answer } of runs.results) {
    if (!answer.ok) continue;
    for (const row of answer.rows) {
      const hit = rowId(target, row);
      if (hit && !ids.has(siteKey(target.kind, hit.code))) {
        ids.set(siteKey(target.kind, hit.code), hit.id);
        found.push({ kind: target.kind, ...hit });
      }
    }
  }
  if (found.length > 0) await deps.remember(found);
  const unknown = sites.filter((s) => !ids.has(siteKey(s.ref.target.kind, s.key)));
  if (unknown.length > 0) {
    return {
      kind: "unknown",
      errors: unknown.map((s) => ({
        path: s.path,
        message: `No ${s.ref.target.noun} has ${s.ref.target.match} '${s.spelling}'.`,
      })),
    };
  }
  for (const s of sites) {
    Reflect.deleteProperty(s.holder, s.ref.code);
    s.holder[s.ref.id] = ids.get(siteKey(s.ref.target.kind, s.key));
  }
  return { kind: "done", cached };
}

export function rowId(target: Target, row: unknown): { code: string; id: number } | null {
  if (typeof row !== "object" || row === null) return null;
  const r = row as Record<string, unknown>;
  const code = codeKey(target, r[target.match]);
  return typeof r.Id === "number" && Number.isSafeInteger(r.Id) && code.ok
    ? { code: code.key, id: r.Id }
    : null;
}

/** @example codeKey(CUSTOMER, "10001") // { ok: true, key: "10001", spelling: "10001" } */
export function codeKey(
  target: Pick<Target, "value">,
  v: unknown,
): { ok: true; key: string; spelling: string } | { ok: false; message: string } {
  if (target.value === "number") {
    const n = typeof v === "string" && /^\s*\d{1,15}\s*$/.test(v) ? Number(v) : v;
    return typeof n === "number" && Number.isSafeInteger(n) && n >= 0
      ? { ok: true, key: String(n), spelling: String(n) }
      : { ok: false, message: "must be a whole number" };
  }
  if (typeof v !== "string" || v.trim() === "")
    return { ok: false, message: "must be a code (a non-empty string)" };
  // The API's list filters split on commas, so a code with one cannot be looked up.
  if (v.includes(","))
    return { ok: false, message: "contains a comma, which no code lookup can match" };
  return { ok: true, key: v.trim().toLowerCase(), spelling: v.trim() };
}
