/**
 * @module
 * The assistants' section of the operator's face (`tenant/operator-sections.ts`): OAuth grants and
 * the tool calls made under them.
 */
import { fail, ok, type Outcome } from "../../kernel/outcome";
import { addGrant, type GrantAsk } from "../../tenant/grant-face";
import { ownerOf, type TenantParts } from "../../tenant/parts";
import type { TenantRecord } from "../../tenant/registration";
import { viewOf, type GrantView } from "./assistant-grants";
import type { ToolCallRow } from "./tool-calls";

type AssistantsHost = Pick<TenantParts, "grants" | "toolCalls" | "arm">;

export class AssistantsSection {
  readonly #t: AssistantsHost;

  constructor(t: AssistantsHost) {
    this.#t = t;
  }

  /** An assistant's tool calls, newest first (`tool-calls.ts`); `before` is a row's `seq`. */
  toolCalls(_: TenantRecord, limit: number, before: number | null): Outcome<ToolCallRow[]> {
    return ok(this.#t.toolCalls.list(limit, before, Date.now()));
  }

  /** The tenant's live OAuth grants, newest first. */
  assistantGrants(): Outcome<GrantView[]> {
    return ok(this.#t.grants.list(Date.now()).map(viewOf));
  }

  /** Records an OAuth grant the operator approved (the console's approval page). */
  grantAssistant(r: TenantRecord, ask: GrantAsk): Promise<Outcome<GrantView>> {
    return addGrant(this.#t, ownerOf(r), ask);
  }

  /** Revokes a grant at once; the caller revokes its KV records (`assistants/oauth/revoke.ts`). */
  revokeAssistantGrant(_: TenantRecord, grantId: string): Outcome<null> {
    return this.#t.grants.revoke(grantId) ? ok(null) : fail("not-found", "No such grant.");
  }
}
