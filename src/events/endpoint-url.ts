/**
 * @module
 * Which URLs a tenant may register as a webhook endpoint, by allow-list: `https://` to a global
 * unicast address or a public name, so the gateway's own network is not the key holder's to probe
 * (SSRF). See docs/design/events.md.
 */
import type { Result } from "../kernel/result";

/** The longest endpoint URL, characters. */
export const MAX_URL_CHARS = 2000;

/** A block of addresses: its first address, bytes, and its prefix length, bits. */
type Block = { bytes: readonly number[]; bits: number };

/** The blocks named by `cidrs` (`address/bits`), parsed by `parse`; a malformed one throws. */
function blocks(parse: (text: string) => number[] | null, cidrs: readonly string[]): Block[] {
  return cidrs.map((cidr) => {
    const [address = "", bits = ""] = cidr.split("/");
    const bytes = parse(address);
    if (!bytes) throw new Error(`malformed address block ${cidr}`);
    return { bytes, bits: Number(bits) };
  });
}

function within(bytes: readonly number[], block: Block): boolean {
  if (bytes.length !== block.bytes.length) return false;
  for (let i = 0; i * 8 < block.bits; i++) {
    const mask = (0xff << (8 - Math.min(8, block.bits - i * 8))) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((block.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}

/**
 * The four bytes of an IPv4 dotted quad, or null: `URL` writes every IPv4 form as one.
 *
 * @example ipv4Bytes("10.0.0.1") // [10, 0, 0, 1]
 */
export function ipv4Bytes(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

/** The 16-bit groups of one side of `::` (`""` has none), or null if one is not 1–4 hex digits. */
function hexGroups(side: string): number[] | null {
  if (side === "") return [];
  const parts = side.split(":");
  return parts.every((p) => /^[0-9a-f]{1,4}$/.test(p)) ? parts.map((p) => parseInt(p, 16)) : null;
}

/** `text` with a dotted IPv4 tail (`::ffff:1.2.3.4`) written as two hex groups, or null if bad. */
function hexTail(text: string): string | null {
  if (!text.includes(".")) return text;
  const colon = text.lastIndexOf(":");
  const v4 = ipv4Bytes(text.slice(colon + 1));
  if (colon < 0 || !v4) return null;
  const [a = 0, b = 0, c = 0, d = 0] = v4;
  return `${text.slice(0, colon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/**
 * The sixteen bytes of an IPv6 literal (without brackets), or null if `text` is not one.
 *
 * @example ipv6Bytes("::ffff:10.0.0.1") // [0, …, 0, 255, 255, 10, 0, 0, 1]
 */
export function ipv6Bytes(text: string): number[] | null {
  const hex = hexTail(text.toLowerCase());
  const halves = hex?.split("::") ?? [];
  if (halves.length === 0 || halves.length > 2) return null;
  const head = hexGroups(halves[0] ?? "");
  const tail = hexGroups(halves[1] ?? "");
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const words = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

/** IANA's IPv4 special-purpose ranges, none of them a public endpoint's. */
const SPECIAL_IPV4 = blocks(ipv4Bytes, [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
]);

const GLOBAL_IPV6 = blocks(ipv6Bytes, ["2000::/3"]);

/** The special-purpose blocks in 2000::/3: Teredo, benchmarking, ORCHID, documentation, 6to4. */
const SPECIAL_IPV6 = blocks(ipv6Bytes, [
  "2001::/32",
  "2001:2::/48",
  "2001:10::/28",
  "2001:20::/28",
  "2001:db8::/32",
  "2002::/16",
  "3fff::/20",
]);

function globalIPv4(bytes: readonly number[]): boolean {
  return !SPECIAL_IPV4.some((b) => within(bytes, b));
}

function globalIPv6(bytes: readonly number[]): boolean {
  return GLOBAL_IPV6.some((b) => within(bytes, b)) && !SPECIAL_IPV6.some((b) => within(bytes, b));
}

/** Top-level domains for local, private, reserved or non-DNS use (RFC 2606, 6761, 6762, 8375). */
const RESERVED_TLDS = new Set([
  "localhost",
  "local",
  "internal",
  "localdomain",
  "arpa",
  "test",
  "invalid",
  "example",
  "onion",
  "lan",
  "corp",
  "home",
  "intranet",
  "private",
]);

/** What a public top-level domain looks like: letters, or an IDN's `xn--` form. */
const TLD_SHAPE = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * Whether `host` (as `URL` gives it) is a public DNS name: two labels or more, a public TLD.
 *
 * @example publicName("hooks.example.com.") // true
 */
export function publicName(host: string): boolean {
  const labels = (host.endsWith(".") ? host.slice(0, -1) : host).toLowerCase().split(".");
  const tld = labels.at(-1) ?? "";
  return (
    labels.length >= 2 &&
    labels.every((l) => l.length >= 1 && l.length <= 63) &&
    TLD_SHAPE.test(tld) &&
    !RESERVED_TLDS.has(tld)
  );
}

function globalAddress(bytes: readonly number[]): boolean {
  return bytes.length === 16 ? globalIPv6(bytes) : globalIPv4(bytes);
}

/** Why `host` (as `URL` gives it) cannot be a deployed endpoint's, or null if it can. */
function hostProblem(host: string): string | null {
  const bracketed = host.startsWith("[");
  const address = bracketed ? ipv6Bytes(host.slice(1, -1)) : ipv4Bytes(host);
  if (address || bracketed)
    return address && globalAddress(address)
      ? null
      : "must be a public address (no loopback, private, link-local or other special-purpose range)";
  return publicName(host)
    ? null
    : "must be a public host name (two labels or more, under a public top-level domain)";
}

function loopback(host: string): boolean {
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * `text` as an endpoint URL (normalized by `URL`), or why it cannot be one.
 *
 * @param allowLoopback the local configuration's exception: `http://` or `https://` to loopback
 * @example endpointUrl("https://shop.example.com/hooks", false) // { ok: true, value: "https://…" }
 */
export function endpointUrl(text: string, allowLoopback: boolean): Result<string, string> {
  if (text.length > MAX_URL_CHARS)
    return { ok: false, error: `must be at most ${MAX_URL_CHARS} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, error: "must be an absolute URL" };
  }
  if (url.username || url.password)
    return { ok: false, error: "must not carry a user name or password" };
  const host = url.hostname;
  if (allowLoopback && loopback(host) && (url.protocol === "http:" || url.protocol === "https:"))
    return { ok: true, value: url.href };
  if (url.protocol !== "https:")
    return {
      ok: false,
      error: allowLoopback
        ? "must be https:// (http:// only to a loopback address, in the local configuration)"
        : "must be https://",
    };
  const problem = hostProblem(host);
  return problem ? { ok: false, error: problem } : { ok: true, value: url.href };
}
