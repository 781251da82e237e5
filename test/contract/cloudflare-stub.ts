/**
 * The runtime modules the gateway imports (`cloudflare:workers`, `cloudflare:workflows`), reduced to
 * what importing the app in Node needs: the contract project only builds its OpenAPI documents,
 * it never runs a Durable Object, a Workflow or a request.
 */
// Empty on purpose: the gateway's classes only extend them here, none is ever constructed.
// eslint-disable-next-line @typescript-eslint/no-extraneous-class
export class DurableObject {}
// eslint-disable-next-line @typescript-eslint/no-extraneous-class
export class WorkflowEntrypoint {}
export class NonRetryableError extends Error {}
export const env: Record<string, unknown> = {};
