#!/usr/bin/env node
// The tests of `npm test`, in two vitest processes side by side, their results merged into one
// report. The gateway's integration tests run one file at a time (the files share a sandbox, and
// with it the rate limit they measure), and vitest runs every such project in a single line after
// the parallel ones (`groupSpecs`, whatever their number), so in one process they are most of the
// suite's time on one core. Each process has its own runtime, sandbox and storage: process 1 runs
// the `gateway` project (routes, Durable Objects), process 2 everything else (`gateway-flows`, the
// Workflows, after the parallel projects). Both write vitest's blob reports, which
// `vitest --merge-reports` turns into the usual output, exit code and any `--reporter` asked for.
//
// Arguments: `--reporter…` and `--outputFile…` go to the merged report (`.ci/run` asks for JSON);
// anything else (files, `-t`) goes to both processes. A process that dies without its report fails
// the run, with its output shown.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { bin, root } from "./wrangler-env.mjs";

const BLOBS = join(root, ".build", "vitest-blobs");
const vitest = join(bin, "vitest");

const args = process.argv.slice(2);
const isReportArg = (a) => /^--(reporter|outputFile)\b/.test(a);
const reportArgs = args.filter(isReportArg);
const runArgs = args.filter((a) => !isReportArg(a));

const GROUPS = [
  { name: "gateway", projects: ["gateway"] },
  { name: "rest", projects: ["unit", "contract", "sandbox", "gateway-flows", "corpus", "browser"] },
];

/** Runs vitest with `argv`; resolves with its exit code and, when `quiet`, what it printed. */
function run(argv, quiet) {
  return new Promise((resolve) => {
    const child = spawn(vitest, argv, { cwd: root, stdio: quiet ? "pipe" : "inherit" });
    let output = "";
    if (quiet) for (const s of [child.stdout, child.stderr]) s.on("data", (d) => (output += d));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

rmSync(BLOBS, { recursive: true, force: true });
mkdirSync(BLOBS, { recursive: true });
const results = await Promise.all(
  GROUPS.map((g) =>
    run(
      [
        "run",
        ...g.projects.flatMap((p) => ["--project", p]),
        "--passWithNoTests",
        "--reporter=blob",
        `--outputFile=${join(BLOBS, `${g.name}.json`)}`,
        ...runArgs,
      ],
      true,
    ),
  ),
);
const merged = await run(["run", `--merge-reports=${BLOBS}`, ...reportArgs], false);
// A failing test is reported by the merge; a process that failed otherwise (it crashed, its config
// did not load) may have left no report at all, so its own output is the only account of it.
results.forEach((r, i) => {
  if (r.code !== 0 && merged.code === 0) {
    process.stderr.write(`\nvitest process "${GROUPS[i].name}" exited ${r.code}:\n${r.output}`);
  }
});
process.exit(merged.code !== 0 ? merged.code : results.some((r) => r.code !== 0) ? 1 : 0);
