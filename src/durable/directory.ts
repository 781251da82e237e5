/**
 * @module
 * `Directory`: one for the whole gateway, the list of registered tenant names, so operators can list
 * tenants. It holds names only; everything else about a tenant is in its own `Tenant` object.
 */
import { DurableObject } from "cloudflare:workers";

export class Directory extends DurableObject {
  /** Adds a tenant name. */
  async add(name: string): Promise<void> {
    await this.ctx.storage.put(`tenant:${name}`, true);
  }

  /** Removes a tenant name. */
  async remove(name: string): Promise<void> {
    await this.ctx.storage.delete(`tenant:${name}`);
  }

  /** All tenant names, sorted. */
  async list(): Promise<string[]> {
    const entries = await this.ctx.storage.list({ prefix: "tenant:" });
    return [...entries.keys()].map((k) => k.slice("tenant:".length));
  }
}
