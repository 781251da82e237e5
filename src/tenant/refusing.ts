/**
 * @module
 * A face that did not check out, made from the class of the one that did: every method (up to
 * `RpcTarget`, as RPC reaches them) answers the same refusal and holds nothing of the tenant, and
 * a new method is refused without a line of its own. See docs/design/faces.md.
 */
import { RpcTarget } from "cloudflare:workers";
import type { Failure } from "../kernel/outcome";

/** A class of faces like `Face`'s, each method answering `refusal`. */
export function refusing<Face extends RpcTarget>(
  face: abstract new (...args: never[]) => Face,
  refusal: { ok: false; error: Failure },
): new () => Face {
  class Refused extends RpcTarget {}
  for (let p: object | null = face.prototype; p && p !== RpcTarget.prototype;) {
    for (const name of Object.getOwnPropertyNames(p))
      if (name !== "constructor" && !Object.hasOwn(Refused.prototype, name))
        Object.defineProperty(Refused.prototype, name, { value: async () => refusal });
    p = Object.getPrototypeOf(p);
  }
  // The methods were added above, one for each of `Face`'s: the compiler cannot see that.
  return Refused as unknown as new () => Face;
}
