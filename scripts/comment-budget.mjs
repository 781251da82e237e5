// `npm run lint` runs this after ESLint: the gateway's comments stay where a reader needs them.
// Over the non-blank lines of src/**/*.ts(x), it fails when more than 18 % are comment lines, when
// more than 25 comment blocks run 12 lines or more, or when a comment names an issue ("issue 12",
// "#12"): arguments belong in docs/design/, history in commit messages. A comment line holds
// nothing but comment (`//`, `/* … */`, or a JSX comment `{/* … */}`); a block is a run of
// consecutive comment lines. Comments are found by TypeScript's parser, so `//` inside a string,
// a template or JSX text is not one. `--list` prints the share per folder and the long blocks.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const MAX_SHARE = 0.18;
const LONG_BLOCK = 12;
const MAX_LONG_BLOCKS = 25;
// "issue 30", "issues 12 and 13", "#12"; not a shop's order name ("#1001", four digits or more).
const ISSUE = /\b[Ii]ssues? #?\d+|(?<![\w&/])#\d{1,3}\b/;

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield path;
  }
}

/** The comment ranges of a file, each once, as the parser sees them. */
function commentRanges(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const seen = new Map();
  const add = (ranges) => ranges?.forEach((r) => seen.set(r.pos, r));
  const visit = (node) => {
    // JSX text is text: a `//` in it is not a comment.
    if (node.kind !== ts.SyntaxKind.JsxText) {
      add(ts.getLeadingCommentRanges(text, node.pos));
      add(ts.getTrailingCommentRanges(text, node.end));
    }
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return [...seen.values()];
}

/** Each line's kind (blank, comment: nothing but comment, or code), and the comments' texts. */
function classify(file) {
  const text = readFileSync(file, "utf8");
  const ranges = commentRanges(file, text);
  const inComment = new Uint8Array(text.length);
  for (const r of ranges) {
    inComment.fill(1, r.pos, r.end);
    // A JSX comment's braces are part of it.
    const before = text.slice(0, r.pos).match(/\{\s*$/);
    const after = text.slice(r.end).match(/^\s*\}/);
    if (before && after) {
      inComment.fill(1, r.pos - before[0].length, r.pos);
      inComment.fill(1, r.end, r.end + after[0].length);
    }
  }
  const kinds = [];
  let start = 0;
  for (const line of text.split("\n")) {
    let kind = "blank";
    for (let i = 0; i < line.length && kind !== "code"; i++)
      if (!/\s/.test(line[i])) kind = inComment[start + i] ? "comment" : "code";
    kinds.push(kind);
    start += line.length + 1;
  }
  const comments = ranges.map((r) => ({
    line: text.slice(0, r.pos).split("\n").length,
    text: text.slice(r.pos, r.end),
  }));
  return { kinds, comments };
}

let nonBlank = 0;
let commentLines = 0;
const longBlocks = [];
const issues = [];
const perFolder = new Map();
for (const file of sources(join(root, "src"))) {
  const rel = relative(root, file);
  const { kinds, comments } = classify(file);
  const lines = kinds.filter((k) => k !== "blank").length;
  const commented = kinds.filter((k) => k === "comment").length;
  nonBlank += lines;
  commentLines += commented;
  const folder = rel.split("/").slice(0, 2).join("/");
  const f = perFolder.get(folder) ?? { lines: 0, comments: 0 };
  perFolder.set(folder, { lines: f.lines + lines, comments: f.comments + commented });
  let run = 0;
  // A sentinel line of code ends a block that runs to the end of the file.
  for (const [i, kind] of [...kinds, "code"].entries()) {
    if (kind === "comment") run++;
    else {
      if (run >= LONG_BLOCK) longBlocks.push(`${rel}:${i + 1 - run} (${run} lines)`);
      run = 0;
    }
  }
  for (const c of comments) {
    const m = c.text.match(ISSUE);
    if (m) issues.push(`${rel}:${c.line}: ${m[0]}`);
  }
}

const share = commentLines / nonBlank;
const pct = (x) => `${(100 * x).toFixed(1)} %`;
if (process.argv.includes("--list")) {
  for (const [folder, f] of [...perFolder].sort((a, b) => b[1].comments - a[1].comments))
    console.log(
      `${folder.padEnd(32)} ${String(f.comments).padStart(5)} / ${String(f.lines).padStart(5)}  ${pct(f.comments / f.lines)}`,
    );
  for (const b of longBlocks) console.log(`long block: ${b}`);
}
const failures = [
  share > MAX_SHARE &&
    `${pct(share)} of src's non-blank lines are comments (at most ${pct(MAX_SHARE)})`,
  longBlocks.length > MAX_LONG_BLOCKS &&
    `${longBlocks.length} comment blocks of ${LONG_BLOCK} lines or more (at most ${MAX_LONG_BLOCKS}; --list names them)`,
  ...issues.map((i) => `an issue number in a comment: ${i}`),
].filter(Boolean);
if (failures.length === 0)
  console.log(
    `comment-budget: ${pct(share)} comment lines (${commentLines} of ${nonBlank}), ${longBlocks.length} blocks of ${LONG_BLOCK}+ lines, no issue numbers`,
  );
else {
  for (const f of failures) console.error(`comment-budget: ${f}`);
  process.exitCode = 1;
}
