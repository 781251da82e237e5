/**
 * @module
 * openapi-fetch's clients with exact request types. openapi-fetch infers each call's options as a
 * type parameter, so a misspelt property in a body that has any right one (`{ Name, Nmae }`)
 * compiles: an inferred type is only checked for assignability, never for excess properties. Here
 * the options are the operation's own type, not inferred, so TypeScript checks object literals
 * against it exactly, in bodies, query and path parameters alike. Same objects at run time.
 */
import type { Client, FetchOptions, FetchResponse } from "openapi-fetch";

type Method = "get" | "put" | "post" | "delete" | "patch";

/** The paths of `P` that have method `M`. */
type PathsWith<P, M extends Method> = {
  [K in keyof P]: P[K] extends { [X in M]: object } ? K : never;
}[keyof P];

/** The operation object of `M` on `Path`. */
type Op<P, Path extends keyof P, M extends Method> = P[Path][M & keyof P[Path]];

/**
 * The body of an operation, in any of its media types (JSON, JSON Patch, merge patch): required,
 * optional or absent as the document says.
 */
type Body<O> = O extends { requestBody: { content: infer C } }
  ? { body: C[keyof C] }
  : O extends { requestBody?: { content: infer C } }
    ? { body?: C[keyof C] }
    : { body?: never };

/** A call's options: openapi-fetch's, with the body as the document declares it. */
export type ExactInit<O> = Omit<FetchOptions<O>, "body"> & Body<O>;

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/** The options argument: required when the operation has required parameters or a body. */
type InitArgument<O> =
  RequiredKeys<ExactInit<O>> extends never ? [init?: ExactInit<O>] : [init: ExactInit<O>];

/** One method of the client, e.g. `POST`. */
export type ExactMethod<P, M extends Method> = <Path extends PathsWith<P, M>>(
  url: Path,
  ...init: InitArgument<Op<P, Path, M>>
) => Promise<
  FetchResponse<
    Op<P, Path, M> & Record<string | number, unknown>,
    ExactInit<Op<P, Path, M>>,
    `${string}/${string}`
  >
>;

/**
 * An openapi-fetch client of `P` whose `GET`, `POST`, `PUT`, `PATCH` and `DELETE` check their
 * options exactly: `v2.POST("/Customers", { body: { Nmae: "x" } })` does not compile. The other
 * members (`use`, `eject`, `request`, ...) are openapi-fetch's, unchanged.
 *
 * @example const v2 = createClient<V2Paths>({ baseUrl }) as unknown as ExactClient<V2Paths>;
 */
export type ExactClient<P extends object> = Omit<
  Client<P>,
  "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
> & {
  GET: ExactMethod<P, "get">;
  POST: ExactMethod<P, "post">;
  PUT: ExactMethod<P, "put">;
  PATCH: ExactMethod<P, "patch">;
  DELETE: ExactMethod<P, "delete">;
};
