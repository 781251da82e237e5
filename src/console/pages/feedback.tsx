/**
 * @module
 * What a form post has to say, shown beside its form: a form post redirects to the form's anchor
 * (`../flash.ts`), and the message sits right under that anchor, so it is in the first screenful
 * wherever the form is on the page.
 */
import type { Flash } from "../flash";
import { when } from "../views";

/**
 * The flash's message if it belongs to the form at `at`: a confirmation (`role=status`) or an
 * error with each field's refusal (`role=alert`). `label` names a field by its label.
 */
export function FormMessage(p: {
  flash: Flash | undefined;
  at: string;
  label?: (field: string) => string;
}) {
  const f = p.flash;
  if (!f || f.at !== p.at) return null;
  const label = p.label ?? ((field: string) => field);
  return (
    <>
      {f.notice ? (
        <p class="notice" role="status">
          {f.notice}
        </p>
      ) : null}
      {f.error || f.errors?.length ? (
        <div class="error" role="alert">
          {f.error ? <p>{f.error}</p> : null}
          {f.errors?.length ? (
            <ul>
              {f.errors.map((e) => (
                <li>{`${label(e.field)} ${e.message}`}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

/** A gateway key just issued, shown this once (the flash that carried it is gone after this). */
export function FreshKey(p: { flash: Flash | undefined }) {
  const k = p.flash?.freshKey;
  if (!k) return null;
  return (
    <div class="fresh" role="status">
      <p>
        <label for="new-gateway-key">New gateway key (shown once)</label>
      </p>
      <output id="new-gateway-key">{k.gatewayKey}</output>
      <p>
        Copy it now: the gateway keeps only a hash of it and cannot show it again, not even when you
        reload this page. Earlier keys stop working at {when(k.previousKeysRetireAt)}.
      </p>
    </div>
  );
}
