/**
 * @module
 * Files attached to vouchers: the pages of a draft (`/JournalEntryVouchers/{id}/VoucherPages`),
 * which stay with the voucher when it is posted, and the PDF documentation of a posted voucher
 * (`PUT /VoucherDocumentation`). A file is a `VoucherFile` record (what it is, whose, how big)
 * under its voucher; its bytes are kept base64-encoded in `VoucherFileChunk` records under the
 * file, because a Durable Object's SQLite row holds at most 2 MB while an upload may be 30 MB.
 */
import type { Upload } from "../engine/call";
import type { Dto, Store } from "../engine/store";

export const FILE_KIND = "VoucherFile";
const CHUNK_KIND = "VoucherFileChunk";
/** Raw bytes per chunk: 768 KiB become 1 MiB of base64, well inside a row. */
const CHUNK_BYTES = 768 * 1024;

/**
 * What a file documents, named as `VoucherDocumentationType` names it; `Upload` is a file that is
 * not voucher documentation (an import's file, a quality document's version), stored the same way.
 */
export type FileType = "Pdf" | "Images" | "Upload";

/** Stores `upload` under `voucherId` and returns its metadata record. */
export function putFile(
  store: Store,
  voucherId: string,
  type: FileType,
  upload: Upload,
  owner: string,
  at: Date,
): Dto {
  const id = store.nextId();
  const chunks = Math.max(1, Math.ceil(upload.bytes.byteLength / CHUNK_BYTES));
  for (let i = 0; i < chunks; i++) {
    const part = upload.bytes.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES);
    store.put(
      CHUNK_KIND,
      `${id}:${i}`,
      { Index: i, Data: toBase64(part) },
      { parent: String(id), owner },
    );
  }
  const dto: Dto = {
    Id: id,
    VoucherId: voucherId,
    Type: type,
    Name: upload.name,
    ContentType: upload.type,
    Size: upload.bytes.byteLength,
    Chunks: chunks,
    CreatedDateTimeOffset: at.toISOString(),
  };
  store.put(FILE_KIND, id, dto, { parent: voucherId, owner });
  return dto;
}

/**
 * The files of a voucher, optionally of one type, oldest first, with the integration that stored
 * each.
 */
export function filesOf(
  store: Store,
  voucherId: string,
  type?: FileType,
): { dto: Dto; owner: string }[] {
  return store
    .all(FILE_KIND, voucherId)
    .filter((r) => !type || r.dto.Type === type)
    .map((r) => ({ dto: r.dto, owner: r.owner }));
}

/** The bytes of a stored file. */
export function fileBytes(store: Store, fileId: string | number): Uint8Array {
  const parts = store
    .all(CHUNK_KIND, String(fileId))
    .map((r) => r.dto)
    .sort((a, b) => Number(a.Index) - Number(b.Index));
  const decoded = parts.map((p) => fromBase64(String(p.Data)));
  const out = new Uint8Array(decoded.reduce((n, d) => n + d.byteLength, 0));
  let at = 0;
  for (const d of decoded) {
    out.set(d, at);
    at += d.byteLength;
  }
  return out;
}

export function removeFile(store: Store, fileId: string | number): void {
  store.removeChildren(CHUNK_KIND, String(fileId));
  store.remove(FILE_KIND, fileId);
}

/** Removes every file of a voucher (its draft was deleted). */
export function removeFilesOf(store: Store, voucherId: string): void {
  for (const f of filesOf(store, voucherId)) removeFile(store, String(f.dto.Id));
}

/** A draft's pages as `VoucherPage` DTOs. */
export function pagesOf(store: Store, voucherId: string): Dto[] {
  return filesOf(store, voucherId, "Images").map(({ dto }) => ({
    CreatedDateTimeOffset: dto.CreatedDateTimeOffset,
    Id: dto.Id,
    VoucherId: voucherId,
  }));
}

function toBase64(bytes: Uint8Array): string {
  // In slices: spreading megabytes into one String.fromCharCode call overflows the call stack.
  let binary = "";
  for (let i = 0; i < bytes.byteLength; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** True when `bytes` start with `prefix` (a file's magic number). */
export function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

export const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
