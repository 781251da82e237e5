/**
 * Walking the API's operations: a request for any operation with placeholder parameters and a body
 * of the right kind, and the test of whether an answer came from the operation (its content may be
 * refused) rather than from the router (no such path or method).
 */
import type { Operation } from "../../shared/v2/catalog";

/**
 * A request for `op` with placeholder parameters and a body of the right kind (its content may be
 * refused; the route may not).
 */
export function requestFor(op: Operation): [string, RequestInit] {
  const path = op.path.replace(/\{[^}]+\}/g, "1");
  const init: RequestInit = { method: op.method };
  if (op.body === "json" || op.body === "multipart-or-json") init.body = "{}";
  if (op.body === "json-patch")
    init.body = JSON.stringify([{ op: "test", path: "/Name", value: "x" }]);
  if (op.body === "json" || op.body === "multipart-or-json" || op.body === "json-patch") {
    init.headers = {
      "content-type": op.body === "json-patch" ? "application/json-patch+json" : "application/json",
    };
  }
  if (op.body === "multipart") {
    const form = new FormData();
    form.set(
      "file",
      new File([new TextEncoder().encode("%PDF-1.4\n%%EOF")], "a.pdf", { type: "application/pdf" }),
    );
    init.body = form;
  }
  return [path, init];
}

/**
 * A route that does not exist answers with this title; a resource that does not exist says
 * "Object(s) not found".
 */
export async function servedBy(res: Response): Promise<boolean> {
  if ([405, 501].includes(res.status)) return false;
  if (res.status !== 404) return true;
  const body = (await res
    .clone()
    .json()
    .catch(() => ({}))) as { title?: string };
  return body.title !== "Not Found";
}
