/**
 * @module
 * A face that did not check out, made from the one that did: every method the checked face has
 * (its prototype chain up to `RpcTarget`, as Workers RPC reaches it) answers the same refusal, and
 * the refused face holds nothing of the tenant, so it cannot reach anything even by mistake. Made
 * from the class, not from a list, so a new method of a face is refused without a line of its own;
 * the faces test holds the two method lists equal.
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
