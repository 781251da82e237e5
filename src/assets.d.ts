/**
 * Modules imported as text (wrangler.toml `[[rules]]` type "Text"): the reference page's script,
 * served by the Worker itself so `/docs` works offline (`kernel/routes/docs.ts`).
 */
declare module "@scalar/api-reference/browser/standalone.js" {
  const source: string;
  export default source;
}
