/**
 * @module
 * The platform's onboarding sessions (`POST /Onboarding/Initiate` → approval page → Finalize). One
 * row per session, found by the hash of its page id (the TemporaryUrl's secret part) and, once the
 * user approved, by the hash of its onboarding token. Neither secret is stored as itself.
 *
 * Every transition is one synchronous read and write: the platform object runs one event at a time
 * between awaits, so a second approval of the same page, or a second Finalize of the same token,
 * finds the row already moved on and is refused.
 */

/** The table, created by the platform's schema. */
export const ONBOARDING_TABLE = `CREATE TABLE IF NOT EXISTS onboardings (page_hash TEXT PRIMARY KEY, redirect_uri TEXT NOT NULL,
  org_no TEXT, valid_until INTEGER NOT NULL, status TEXT NOT NULL, client_ids TEXT NOT NULL, token_hash TEXT UNIQUE,
  token_valid_until INTEGER, created_at INTEGER NOT NULL)`;

/**
 * How long a TemporaryUrl can be opened and approved, ms (the spec's example gives no figure; 15
 * minutes).
 */
export const PAGE_LIFETIME_MS = 15 * 60 * 1000;
/**
 * How long the onboarding token in the redirect can be finalized, ms: the integration does it at
 * once.
 */
export const TOKEN_LIFETIME_MS = 10 * 60 * 1000;
/**
 * Sessions are kept this long past their end (ms), so a late visit says "expired", not "unknown".
 */
const RETENTION_MS = 24 * 3600 * 1000;

/** Where a session is. */
export type OnboardingStatus = "pending" | "approved" | "declined" | "finalized";

/** A session as stored. */
export interface OnboardingSession {
  redirectUri: string;
  /**
   * The ClientOrganizationNo the integration asked for, or null for "any client the user picks".
   */
  orgNo: string | null;
  validUntil: number;
  status: OnboardingStatus;
  clientIds: string[];
}

/**
 * The approval page of an onboarding: the clients offered, or why the page can no longer be used.
 */
export type OnboardingView =
  | {
      state: "pending";
      orgNo: string | null;
      validUntil: string;
      clients: { id: string; name: string; orgNo: string | null }[];
    }
  | { state: "unknown" | "expired" | "done" };

/** What the user chose on the approval page. */
export interface OnboardingDecision {
  approve: boolean;
  clientIds: string[];
  /** A company to create on the spot and connect too. */
  newCompany: { name: string; organizationNumber: string } | null;
}

/** Where the approval page sends the browser, or why it cannot. */
export type OnboardingDecided =
  | { ok: true; location: string }
  | { ok: false; reason: "unknown" | "expired" | "done" }
  | { ok: false; reason: "invalid"; message: string };

/** One entry of `FinalizeOnboardingResponseDto.OnboardedClientsInformation`. */
export interface OnboardedClient {
  ClientKey: string;
  ClientName: string;
  ClientOrganizationNumber: string | null;
}

interface Row extends Record<string, SqlStorageValue> {
  redirect_uri: string;
  org_no: string | null;
  valid_until: number;
  status: string;
  client_ids: string;
  token_valid_until: number | null;
}

const STATUSES: readonly OnboardingStatus[] = ["pending", "approved", "declined", "finalized"];

function sessionOf(r: Row): OnboardingSession {
  const status = STATUSES.find((s) => s === r.status) ?? "finalized";
  const ids: unknown = JSON.parse(r.client_ids);
  const clientIds = Array.isArray(ids) ? ids.filter((x): x is string => typeof x === "string") : [];
  return {
    redirectUri: r.redirect_uri,
    orgNo: r.org_no,
    validUntil: r.valid_until,
    status,
    clientIds,
  };
}

export class OnboardingBook {
  constructor(private readonly sql: SqlStorage) {}

  /** Opens a session; forgets sessions long past their end. */
  open(
    pageHash: string,
    s: { redirectUri: string; orgNo: string | null; validUntil: number },
    now: number,
  ): void {
    this.sql.exec(
      "DELETE FROM onboardings WHERE MAX(valid_until, COALESCE(token_valid_until, 0)) < ?",
      now - RETENTION_MS,
    );
    this.sql.exec(
      "INSERT INTO onboardings (page_hash, redirect_uri, org_no, valid_until, status, client_ids, created_at) VALUES (?, ?, ?, ?, 'pending', '[]', ?)",
      pageHash,
      s.redirectUri,
      s.orgNo,
      s.validUntil,
      now,
    );
  }

  /** The session behind a page, or null. */
  session(pageHash: string): OnboardingSession | null {
    const r = this.sql
      .exec<Row>(
        "SELECT redirect_uri, org_no, valid_until, status, client_ids, token_valid_until FROM onboardings WHERE page_hash = ?",
        pageHash,
      )
      .toArray()[0];
    return r ? sessionOf(r) : null;
  }

  /** The user approved these clients: the session now waits for Finalize with `tokenHash`. */
  approve(pageHash: string, clientIds: string[], tokenHash: string, tokenValidUntil: number): void {
    this.sql.exec(
      "UPDATE onboardings SET status = 'approved', client_ids = ?, token_hash = ?, token_valid_until = ? WHERE page_hash = ? AND status = 'pending'",
      JSON.stringify(clientIds),
      tokenHash,
      tokenValidUntil,
      pageHash,
    );
  }

  /** The user declined: the page cannot be used again. */
  decline(pageHash: string): void {
    this.sql.exec(
      "UPDATE onboardings SET status = 'declined' WHERE page_hash = ? AND status = 'pending'",
      pageHash,
    );
  }

  /**
   * Finalize: the approved session of `tokenHash`, moved to `finalized` in the same step, or null
   * when the token is unknown, already finalized or expired (the API tells these apart no more
   * than a 400 does).
   */
  claim(tokenHash: string, now: number): OnboardingSession | null {
    const r = this.sql
      .exec<Row>(
        "SELECT redirect_uri, org_no, valid_until, status, client_ids, token_valid_until FROM onboardings WHERE token_hash = ?",
        tokenHash,
      )
      .toArray()[0];
    if (!r || r.status !== "approved" || (r.token_valid_until ?? 0) <= now) return null;
    this.sql.exec("UPDATE onboardings SET status = 'finalized' WHERE token_hash = ?", tokenHash);
    return sessionOf(r);
  }

  /** Forgets every session. */
  clear(): void {
    this.sql.exec("DELETE FROM onboardings");
  }
}
