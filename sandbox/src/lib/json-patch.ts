/**
 * @module
 * Applies an RFC 6902 JSON Patch to a plain JSON document. Atomic: it works on a copy and either
 * returns the whole patched document or the first operation's failure.
 */
import { pointerTokens, type JsonPatch } from "../../../shared/v2/json-patch";

type Json = unknown;

/** Applies `patch` to a copy of `doc`; returns the result or why operation `index` failed. */
export function applyPatch(
  doc: Json,
  patch: JsonPatch,
): { ok: true; value: Json } | { ok: false; index: number; message: string } {
  let root: Json = structuredClone(doc);
  for (const [index, op] of patch.entries()) {
    try {
      switch (op.op) {
        case "add":
          root = put(root, pointerTokens(op.path), structuredClone(op.value), "add");
          break;
        case "replace":
          get(root, pointerTokens(op.path));
          root = put(root, pointerTokens(op.path), structuredClone(op.value), "replace");
          break;
        case "remove":
          root = remove(root, pointerTokens(op.path));
          break;
        case "test":
          if (JSON.stringify(get(root, pointerTokens(op.path))) !== JSON.stringify(op.value))
            throw new Error(`test failed at ${op.path}`);
          break;
        case "move": {
          const value = get(root, pointerTokens(op.from));
          root = put(remove(root, pointerTokens(op.from)), pointerTokens(op.path), value, "add");
          break;
        }
        case "copy":
          root = put(
            root,
            pointerTokens(op.path),
            structuredClone(get(root, pointerTokens(op.from))),
            "add",
          );
          break;
      }
    } catch (e) {
      return { ok: false, index, message: e instanceof Error ? e.message : String(e) };
    }
  }
  return { ok: true, value: root };
}

function isContainer(v: Json): v is Record<string, Json> | Json[] {
  return typeof v === "object" && v !== null;
}

function get(root: Json, tokens: string[]): Json {
  let cur = root;
  for (const t of tokens) {
    if (Array.isArray(cur) && /^\d+$/.test(t) && Number(t) < cur.length) cur = cur[Number(t)];
    else if (isContainer(cur) && !Array.isArray(cur) && Object.hasOwn(cur, t)) cur = cur[t];
    else throw new Error(`path /${tokens.join("/")} does not exist`);
  }
  return cur;
}

function put(root: Json, tokens: string[], value: Json, mode: "add" | "replace"): Json {
  if (tokens.length === 0) return value;
  const parent = get(root, tokens.slice(0, -1));
  const last = tokens.at(-1) as string;
  if (Array.isArray(parent)) {
    const i = last === "-" ? parent.length : /^\d+$/.test(last) ? Number(last) : -1;
    if (i < 0 || i > parent.length || (mode === "replace" && i >= parent.length))
      throw new Error(`index ${last} is out of range`);
    if (mode === "add") parent.splice(i, 0, value);
    else parent[i] = value;
  } else if (isContainer(parent)) {
    (parent as Record<string, Json>)[last] = value;
  } else {
    throw new Error(`cannot set ${last} on a value that is not an object or array`);
  }
  return root;
}

function remove(root: Json, tokens: string[]): Json {
  get(root, tokens);
  if (tokens.length === 0) return null;
  const parent = get(root, tokens.slice(0, -1)) as Record<string, Json> | Json[];
  const last = tokens.at(-1) as string;
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else Reflect.deleteProperty(parent, last);
  return root;
}
