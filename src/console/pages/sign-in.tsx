/**
 * @module
 * The sign-in page: one field, the operator token.
 */
import { Layout } from "../layout";

/** The sign-in form; `error` when the token was wrong, `notice` after signing out. */
export function SignInPage(p: { error?: string; notice?: string }) {
  return (
    <Layout title="Sign in">
      <h1>Sign in to the ledgergate console</h1>
      {p.notice ? (
        <p class="notice" role="status">
          {p.notice}
        </p>
      ) : null}
      {p.error ? (
        <p class="error" role="alert">
          {p.error}
        </p>
      ) : null}
      <form method="post" action="/console/sign-in">
        <label for="token">Operator token</label>
        <input
          id="token"
          name="token"
          type="password"
          autocomplete="current-password"
          required
          autofocus
        />
        <button type="submit">Sign in</button>
      </form>
      <p class="muted">
        The operator token is the gateway's ADMIN_TOKEN. A session lasts 30 minutes after your last
        click, at most 12 hours.
      </p>
    </Layout>
  );
}
