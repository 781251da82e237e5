// `npm test` runs this before vitest: every relative Markdown link, and every repository path
// written in backticks, in README.md, CONTRIBUTING.md, ARCHITECTURE.md and docs/**/*.md, and in the
// comments of the code (src/, sandbox/, shared/, test/, scripts/, bench/, client/), must name a file
// or folder that exists (and a link's #anchor a heading of its target); and ARCHITECTURE.md must
// name every folder of src/. Prints one line when all resolve; otherwise each broken one as
// file:line, and exits 1. No dependencies: plain Node.
//
// What counts as a path in backticks: one token, no spaces, that starts with a top-level entry of
// the repository (`src/…`, `docs/storage.md`, `.ci/run`, `wrangler.toml`) or, inside docs/, names a
// sibling file (`order-json.md`). Route paths (`/v2/...`), URLs, globs, placeholders (`{id}`,
// `<x>`, `…`) and package names (`ledgergate/client`) are not paths. A path is looked up from the
// repository root, then from the Markdown file's own folder, then under src/ (the docs write
// `orders/…` and `kernel/…` for `src/orders/…` as the code's comments do). A code comment's path is
// looked up from the root, src/, and each folder above the file ('tenant/parts.ts' written in
// src/tenant/tenant-object.ts); only tokens with a slash and a known ending, or that start at the
// root, count.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Build output and local state: named in the docs, absent from a clean clone. */
const GENERATED = new Set(["dist", ".build", ".wrangler", "node_modules"]);
/** The first segments a backticked path may start with: the repository's own top-level entries. */
const TOP = new Set(readdirSync(root).filter((name) => name !== ".git" && !GENERATED.has(name)));
const SRC_TOP = new Set(readdirSync(join(root, "src")));

const files = [
  "README.md",
  "CONTRIBUTING.md",
  "ARCHITECTURE.md",
  ...readdirSync(join(root, "docs"), { recursive: true })
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
].filter((file) => existsSync(join(root, file)));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

const anchorCache = new Map();
/** The anchors of a Markdown file's headings (outside code blocks). */
function anchors(file) {
  if (!anchorCache.has(file)) {
    const found = new Set();
    let fenced = false;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.startsWith("```")) fenced = !fenced;
      const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
      if (m) found.add(slug(m[1]));
    }
    anchorCache.set(file, found);
  }
  return anchorCache.get(file);
}

/** The absolute path `target` names from `file`, or null when nothing there exists. */
function resolve(file, target, { srcToo }) {
  const bases = [root, dirname(join(root, file))];
  if (srcToo) bases.push(join(root, "src"));
  for (const base of bases) {
    const full = join(base, target);
    if (existsSync(full)) return full;
  }
  return null;
}

/** Whether a backticked token is meant as a path in this repository. */
function looksLikePath(token, file) {
  if (/[\s{}<>*…?=,;()[\]|]|^\/|:\/\/|^-/.test(token)) return false;
  const first = token.replace(/^\.\//, "").split("/")[0];
  if (GENERATED.has(first)) return false;
  if (TOP.has(first)) return token.includes("/") || /\.\w+$/.test(token);
  // Relative to src/ (`orders/routes.ts`, `orders/run/`): an ending or a closing slash tells it
  // from a name that shares a folder's first word (Shopify's `orders/paid`).
  if (token.includes("/") && SRC_TOP.has(first) && first !== "index.ts")
    return /\.\w+$|\/$/.test(token);
  // A sibling in docs/: `order-json.md`.
  return file.startsWith("docs/") && /^[\w.-]+\.md$/.test(token);
}

const broken = [];
let checked = 0;
for (const file of files) {
  let fenced = false;
  readFileSync(join(root, file), "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.startsWith("```")) fenced = !fenced;
      if (fenced) return;
      const where = `${file}:${i + 1}`;
      // Links: [text](target) and ![alt](target), relative ones only.
      for (const [, target] of line.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        checked++;
        const [path, anchor] = target.split("#");
        const full = path === "" ? join(root, file) : resolve(file, path, { srcToo: false });
        if (!full) broken.push(`${where}: link to ${target}: no such file`);
        else if (anchor && full.endsWith(".md") && !anchors(full).has(anchor))
          broken.push(
            `${where}: link to ${target}: no heading #${anchor} in ${relative(root, full)}`,
          );
      }
      // Paths in backticks, outside the links just checked.
      for (const [, token] of line.replace(/\]\([^)]*\)/g, "]").matchAll(/`([^`]+)`/g)) {
        const path = token.replace(/[.:]$/, "");
        if (!looksLikePath(path, file)) continue;
        checked++;
        if (!resolve(file, path, { srcToo: true }))
          broken.push(`${where}: \`${token}\`: no such file`);
      }
    });
}

/** Every file below `dir` (relative to the root) whose name matches `ending`, generated ones left out. */
function walk(dir, ending, out = []) {
  if (!existsSync(join(root, dir))) return out;
  for (const name of readdirSync(join(root, dir))) {
    const path = `${dir}/${name}`;
    if (GENERATED.has(name) || name === "generated") continue;
    if (statSync(join(root, path)).isDirectory()) walk(path, ending, out);
    else if (ending.test(name)) out.push(path);
  }
  return out;
}

/** Whether a backticked token in a code comment is meant as a path in this repository. */
function looksLikeCodePath(token) {
  if (/[\s{}<>*…?=,;()[\]|'"$@]|^\/|:\/\/|^-/.test(token)) return false;
  const first = token.replace(/^\.\//, "").split("/")[0];
  if (GENERATED.has(first)) return false;
  if (TOP.has(first)) return token.includes("/") || /\.\w+$/.test(token);
  return token.includes("/") && /\.(ts|tsx|mjs|md|toml|json)$/.test(token);
}

// Paths in the code's comments: a line comment's text, or a line inside a block comment.
const CODE = ["src", "sandbox", "shared", "test", "scripts", "bench", "client"].flatMap((d) =>
  walk(d, /\.(ts|tsx|mjs|js)$/),
);
for (const file of CODE) {
  readFileSync(join(root, file), "utf8")
    .split("\n")
    .forEach((line, i) => {
      const at = /^\s*(\/\/|\*|\/\*)/.test(line) ? 0 : line.indexOf("// ");
      if (at < 0) return;
      for (const [, token] of line.slice(at).matchAll(/`([^`]+)`/g)) {
        const path = token.replace(/[.:,]$/, "");
        if (!looksLikeCodePath(path)) continue;
        checked++;
        const bases = [root, join(root, "src")];
        for (let d = dirname(join(root, file)); d !== root; d = dirname(d)) bases.push(d);
        if (!bases.some((base) => existsSync(join(base, path))))
          broken.push(`${file}:${i + 1}: \`${token}\`: no such file`);
      }
    });
}

// The map names every folder of src/.
if (existsSync(join(root, "ARCHITECTURE.md"))) {
  const map = readFileSync(join(root, "ARCHITECTURE.md"), "utf8");
  const folders = (dir) =>
    readdirSync(join(root, dir))
      .filter((name) => statSync(join(root, dir, name)).isDirectory())
      .flatMap((name) => [`${dir}/${name}`, ...folders(`${dir}/${name}`)]);
  for (const folder of ["src", ...folders("src")]) {
    checked++;
    if (!map.includes(`\`${folder}/\``))
      broken.push(`ARCHITECTURE.md: names no folder \`${folder}/\` (add it to "Folders of src/")`);
  }
}

if (broken.length > 0) {
  console.error(`check-links: ${broken.length} broken of ${checked}:`);
  for (const line of broken) console.error(`  ${line}`);
  process.exit(1);
}
console.log(
  `check-links: ${checked} links and paths in ${files.length} documents and ${CODE.length} code files resolve`,
);
