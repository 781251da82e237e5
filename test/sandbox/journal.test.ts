import { beforeEach, describe, expect, it } from "vitest";
import { crc32 } from "../../sandbox/src/lib/zip";
import { api, control, fresh, json, session, tokenFor } from "./helpers";

beforeEach(() => fresh());

type Session = Awaited<ReturnType<typeof session>>;
type Api = Session["api"];
type Dto = Record<string, unknown>;

const today = () => new Date().toISOString().slice(0, 10);
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

async function body<T = Dto>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (
    res.status === 204 || res.headers.get("content-length") === "0" ? null : await res.json()
  ) as T;
}

/** Account ids by account number. */
async function accounts(s: Session): Promise<Record<number, number>> {
  const rows = await body<{ Id: number; AccountNo: number }[]>(
    await s.api("/GeneralLedgerAccounts?accountNos=1920,3000,4000,2400,2710"),
    200,
  );
  return Object.fromEntries(rows.map((a) => [a.AccountNo, a.Id]));
}

/** A second integration on the same client, with its own token. */
async function otherIntegration(s: Session): Promise<Api> {
  const added = await control<{ clientKey: string }>(
    "POST",
    `/clients/demo/${s.clientId}/integrations`,
    { name: "other-app" },
    201,
  );
  const token = await tokenFor("demo", added.clientKey);
  return (path, init) => api("demo", token, path, init);
}

const patch = (ops: unknown[]) => json(ops, "PATCH", "application/json-patch+json");

function upload(bytes: Uint8Array, type: string, name = "file.bin", method = "POST"): RequestInit {
  const form = new FormData();
  form.append("file", new File([bytes], name, { type }));
  return { method, body: form };
}

async function manualDraft(s: Session, acc: Record<number, number>, amount = 500): Promise<Dto> {
  return body(
    await s.api(
      "/JournalEntryVouchers/ManualJournals",
      json({
        CurrencyCode: "NOK",
        VoucherDate: today(),
        Description: "Kontantsalg",
        Comment: "from the shop",
        ManualVoucherLines: [
          {
            DebitAccountId: acc[1920],
            CreditAccountId: acc[3000],
            DebitVatId: 1,
            CreditVatId: 1,
            CurrencyAmount: amount,
          },
        ],
      }),
    ),
    201,
  );
}

async function submit(s: Session, id: unknown) {
  return body(
    await s.api(
      `/JournalEntryVouchers/${String(id)}/submitForApproval`,
      json({ Comment: "please" }),
    ),
    200,
  );
}

async function approve(s: Session, id: unknown, status = "Approve") {
  return body(
    await s.api(
      `/VoucherApproval/${String(id)}`,
      json({ Comment: "ok", VoucherApprovalStatus: status }),
    ),
    200,
  );
}

/** A voucher posted through POST /Vouchers/ManualJournals: "imported" by the API. */
async function importedVoucher(s: Session, acc: Record<number, number>): Promise<Dto> {
  return body(
    await s.api(
      "/Vouchers/ManualJournals",
      json({
        CurrencyCode: "NOK",
        VoucherDate: today(),
        VoucherLines: [
          { AccountId: acc[1920], CurrencyAmount: 100, VatId: 1, PostingDate: today() },
          { AccountId: acc[3000], CurrencyAmount: -100, VatId: 1, PostingDate: today() },
        ],
      }),
    ),
    201,
  );
}

describe("JournalEntryVouchers: drafts", () => {
  it("creates a manual journal draft and reads it back with the API's field names, Comment not returned", async () => {
    const s = await session();
    const acc = await accounts(s);
    const v = await manualDraft(s, acc);
    expect(v).toMatchObject({
      Id: expect.any(String),
      CurrencyCode: "NOK",
      Description: "Kontantsalg",
      Pages: [],
      ManualVoucherLines: [
        {
          Id: expect.any(Number),
          DebitAccountId: acc[1920],
          CreditAccountId: acc[3000],
          CurrencyAmount: 500,
          DebitAccountAgricultureDepartment: "None",
          CreatedDateTimeOffset: expect.any(String),
        },
      ],
    });
    expect(v).not.toHaveProperty("Comment");
    expect(
      await body(await s.api(`/JournalEntryVouchers/ManualJournals/${String(v.Id)}`), 200),
    ).toEqual(v);
  });

  it("takes bank lines as BankJournalLines and answers them as BankVoucherLines", async () => {
    const s = await session();
    const acc = await accounts(s);
    const v = await body(
      await s.api(
        "/JournalEntryVouchers/BankJournals",
        json({
          CurrencyCode: "NOK",
          VoucherDate: today(),
          BankJournalLines: [
            {
              DebitAccountId: acc[1920],
              CreditAccountId: acc[3000],
              CurrencyAmount: 10,
              InvoiceNo: "77",
            },
          ],
        }),
      ),
      201,
    );
    expect(v).not.toHaveProperty("BankJournalLines");
    expect(v.BankVoucherLines).toMatchObject([{ InvoiceNo: "77", CurrencyAmount: 10 }]);
  });

  it("creates supplier invoices and credit notes with state, supplier and typed lines", async () => {
    const s = await session();
    const acc = await accounts(s);
    const supplier = await body(await s.api("/Suppliers", json({ Name: "Leverandør AS" })), 201);
    const inv = await body(
      await s.api(
        "/JournalEntryVouchers/SupplierInvoices",
        json({
          CurrencyCode: "NOK",
          VoucherDate: today(),
          InvoiceNo: "F-1",
          SupplierAccountId: supplier.SubledgerAccountId,
          CurrencyAmount: 1250,
          SupplierVoucherLines: [{ DebitAccountId: acc[4000], CurrencyAmount: 1250 }],
        }),
      ),
      201,
    );
    expect(inv).toMatchObject({
      VoucherState: "IsDraft",
      ApprovalState: null,
      OriginatedFromEhf: false,
      SupplierContactId: supplier.Id,
      InvoiceNo: "F-1",
      SupplierVoucherLines: [
        { DebitAccountType: "General", CreditAccountType: null, CurrencyAmount: 1250 },
      ],
    });
    const note = await body(
      await s.api(
        "/JournalEntryVouchers/SupplierCreditNotes",
        json({
          CurrencyCode: "NOK",
          VoucherDate: today(),
          CreditNoteNo: "K-1",
          AppliesInvoiceNo: "F-1",
          SupplierAccountId: supplier.SubledgerAccountId,
        }),
      ),
      201,
    );
    expect(
      await body(await s.api(`/JournalEntryVouchers/SupplierCreditNotes/${String(note.Id)}`), 200),
    ).toMatchObject({ CreditNoteNo: "K-1", VoucherState: "IsDraft" });
  });

  it("refuses a line naming an account that does not exist: 404", async () => {
    const s = await session();
    const res = await s.api(
      "/JournalEntryVouchers/ManualJournals",
      json({
        CurrencyCode: "NOK",
        VoucherDate: today(),
        ManualVoucherLines: [{ DebitAccountId: 42, CurrencyAmount: 1 }],
      }),
    );
    expect(await body(res, 404)).toMatchObject({
      title: "Object(s) not found",
      detail: "Account with id = 42 not found.",
    });
  });

  it("lists every draft of the client with its type and state, and filters isPosted and inApprovalWorkflow", async () => {
    const s = await session();
    const acc = await accounts(s);
    expect((await s.api("/JournalEntryVouchers")).status).toBe(204);
    const a = await manualDraft(s, acc);
    const b = await manualDraft(s, acc);
    await submit(s, b.Id);
    const rows = await body<Dto[]>(await s.api("/JournalEntryVouchers"), 200);
    expect(rows).toEqual([
      expect.objectContaining({
        Id: a.Id,
        VoucherType: "ManualJournal",
        IsPosted: false,
        InApprovalWorkflow: false,
        IsCreatedByCurrentIntegration: true,
        OriginatedFromEhf: false,
      }),
      expect.objectContaining({ Id: b.Id, InApprovalWorkflow: true }),
    ]);
    expect(
      (await body<Dto[]>(await s.api("/JournalEntryVouchers?inApprovalWorkflow=true"), 200)).map(
        (r) => r.Id,
      ),
    ).toEqual([b.Id]);
    expect((await s.api("/JournalEntryVouchers?isPosted=true")).status).toBe(204);
  });

  it("patches the header (any casing of the property), but not the lines through it", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    const patched = await body(
      await s.api(
        `/JournalEntryVouchers/ManualJournals/${String(v.Id)}`,
        patch([{ op: "replace", path: "/description", value: "Ny tekst" }]),
      ),
      200,
    );
    expect(patched).toMatchObject({
      Description: "Ny tekst",
      ManualVoucherLines: v.ManualVoucherLines,
    });
    const res = await s.api(
      `/JournalEntryVouchers/ManualJournals/${String(v.Id)}`,
      patch([{ op: "remove", path: "/ManualVoucherLines" }]),
    );
    expect(await body(res, 400)).toMatchObject({
      title: "JournalEntryVoucher validation error(s)",
    });
  });

  it("adds a line (201, the whole voucher), patches it (200, the line) and deletes it (200)", async () => {
    const s = await session();
    const acc = await accounts(s);
    const v = await manualDraft(s, acc);
    const base = `/JournalEntryVouchers/ManualJournals/${String(v.Id)}/VoucherLines`;
    const grown = await body<{ ManualVoucherLines: Dto[] }>(
      await s.api(
        base,
        json({ DebitAccountId: acc[1920], CreditAccountId: acc[3000], CurrencyAmount: 20 }),
      ),
      201,
    );
    expect(grown.ManualVoucherLines).toHaveLength(2);
    const line = grown.ManualVoucherLines[1] as Dto;
    const patched = await body(
      await s.api(
        `${base}/${String(line.Id)}`,
        patch([{ op: "replace", path: "/CurrencyAmount", value: 25 }]),
      ),
      200,
    );
    expect(patched).toMatchObject({ Id: line.Id, CurrencyAmount: 25 });
    expect((await s.api(`${base}/${String(line.Id)}`, { method: "DELETE" })).status).toBe(200);
    expect((await s.api(`${base}/${String(line.Id)}`, { method: "DELETE" })).status).toBe(404);
  });

  it("answers 404 for a draft of another kind at a kind's path", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    expect(
      await body(await s.api(`/JournalEntryVouchers/BankJournals/${String(v.Id)}`), 404),
    ).toMatchObject({ detail: `Voucher with id = ${String(v.Id)} not found.` });
  });

  it("shows a draft only to the integration that created it", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    const other = await otherIntegration(s);
    expect((await other(`/JournalEntryVouchers/ManualJournals/${String(v.Id)}`)).status).toBe(404);
    expect(
      (await other(`/JournalEntryVouchers/${String(v.Id)}`, { method: "DELETE" })).status,
    ).toBe(404);
    expect((await body<Dto[]>(await other("/JournalEntryVouchers"), 200))[0]).toMatchObject({
      Id: v.Id,
      IsCreatedByCurrentIntegration: false,
    });
  });

  it("deletes a draft (200), then it is gone", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    expect(
      (await s.api(`/JournalEntryVouchers/${String(v.Id)}`, { method: "DELETE" })).status,
    ).toBe(200);
    expect((await s.api(`/JournalEntryVouchers/ManualJournals/${String(v.Id)}`)).status).toBe(404);
  });

  it("answers 204 for the EHF of a draft made through the API", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    expect((await s.api(`/JournalEntryVouchers/${String(v.Id)}/ehf`)).status).toBe(204);
  });
});

describe("JournalEntryVouchers: pages", () => {
  it("adds a page (201), lists it on the draft, serves its bytes and deletes it", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    const page = await body(
      await s.api(
        `/JournalEntryVouchers/${String(v.Id)}/VoucherPages`,
        upload(PNG, "image/png", "scan.png"),
      ),
      201,
    );
    expect(page).toMatchObject({
      Id: expect.any(Number),
      VoucherId: v.Id,
      CreatedDateTimeOffset: expect.any(String),
    });
    expect(
      (await body(await s.api(`/JournalEntryVouchers/ManualJournals/${String(v.Id)}`), 200)).Pages,
    ).toEqual([page]);
    const got = await s.api(
      `/JournalEntryVouchers/${String(v.Id)}/VoucherPages/${String(page.Id)}`,
    );
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(PNG);
    expect(
      (
        await s.api(`/JournalEntryVouchers/${String(v.Id)}/VoucherPages/${String(page.Id)}`, {
          method: "DELETE",
        })
      ).status,
    ).toBe(200);
    expect(
      (await s.api(`/JournalEntryVouchers/${String(v.Id)}/VoucherPages/${String(page.Id)}`)).status,
    ).toBe(404);
  });

  it("refuses a page that is neither an image nor a PDF: 400", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    expect(
      (
        await s.api(
          `/JournalEntryVouchers/${String(v.Id)}/VoucherPages`,
          upload(new TextEncoder().encode("hi"), "text/plain"),
        )
      ).status,
    ).toBe(400);
  });

  it("refuses to add or delete pages once the voucher is posted: 409", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    const page = await body(
      await s.api(`/JournalEntryVouchers/${String(v.Id)}/VoucherPages`, upload(PNG, "image/png")),
      201,
    );
    await submit(s, v.Id);
    await approve(s, v.Id);
    expect(
      (await s.api(`/JournalEntryVouchers/${String(v.Id)}/VoucherPages`, upload(PNG, "image/png")))
        .status,
    ).toBe(409);
    expect(
      (
        await s.api(`/JournalEntryVouchers/${String(v.Id)}/VoucherPages/${String(page.Id)}`, {
          method: "DELETE",
        })
      ).status,
    ).toBe(409);
  });
});

describe("JournalEntryVouchers: approval", () => {
  it("submits a draft into the approval list", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    expect(await submit(s, v.Id)).toEqual({
      InApprovalWorkflow: true,
      IsPosted: false,
      VoucherId: v.Id,
    });
    const list = await body<Dto[]>(await s.api("/VoucherApproval"), 200);
    expect(list).toEqual([
      {
        ApprovalVoucherType: "ManualJournal",
        AvailableFromDateTimeOffset: expect.any(String),
        Id: v.Id,
        OriginatedFromEhf: false,
      },
    ]);
    expect(
      (
        await s.api(
          `/VoucherApproval?availableFromDateTimeOffsetGreaterThan=${encodeURIComponent(String(list[0]?.AvailableFromDateTimeOffset))}`,
        )
      ).status,
    ).toBe(204);
  });

  it("refuses to submit a voucher that does not balance: 400", async () => {
    const s = await session();
    const acc = await accounts(s);
    const v = await body(
      await s.api(
        "/JournalEntryVouchers/ManualJournals",
        json({
          CurrencyCode: "NOK",
          VoucherDate: today(),
          ManualVoucherLines: [{ DebitAccountId: acc[1920], CurrencyAmount: 5 }],
        }),
      ),
      201,
    );
    const res = await s.api(`/JournalEntryVouchers/${String(v.Id)}/submitForApproval`, json({}));
    expect(await body(res, 400)).toMatchObject({
      title: "JournalEntryVoucher validation error(s)",
      detail: expect.stringContaining("does not balance"),
    });
  });

  it("refuses to submit twice: 409", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    await submit(s, v.Id);
    expect(
      (await s.api(`/JournalEntryVouchers/${String(v.Id)}/submitForApproval`, json({}))).status,
    ).toBe(409);
  });

  it("refuses to edit a voucher in the approval workflow: 409", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    await submit(s, v.Id);
    const res = await s.api(
      `/JournalEntryVouchers/ManualJournals/${String(v.Id)}`,
      patch([{ op: "replace", path: "/Description", value: "x" }]),
    );
    expect(await body(res, 409)).toMatchObject({ title: "Object conflict" });
  });

  it("refuses to delete a voucher in the approval workflow: 409 'already posted'", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    await submit(s, v.Id);
    const res = await s.api(`/JournalEntryVouchers/${String(v.Id)}`, { method: "DELETE" });
    expect(await body(res, 409)).toMatchObject({
      title: "Object conflict",
      detail: `Voucher with id = ${String(v.Id)} is already posted.`,
    });
  });

  it("rejects back to draft: out of the approval list, editable again", async () => {
    const s = await session();
    const v = await body(
      await s.api(
        "/JournalEntryVouchers/SupplierInvoices",
        json({ CurrencyCode: "NOK", VoucherDate: today(), InvoiceNo: "F-9" }),
      ),
      201,
    );
    const supplier = await body(await s.api("/Suppliers", json({ Name: "L AS" })), 201);
    const acc = await accounts(s);
    await s.api(
      `/JournalEntryVouchers/SupplierInvoices/${String(v.Id)}`,
      patch([{ op: "add", path: "/SupplierAccountId", value: supplier.SubledgerAccountId }]),
    );
    await s.api(
      `/JournalEntryVouchers/SupplierInvoices/${String(v.Id)}/VoucherLines`,
      json({ DebitAccountId: acc[4000], CurrencyAmount: 100 }),
    );
    await submit(s, v.Id);
    expect(await approve(s, v.Id, "reject")).toEqual({
      InApprovalWorkflow: false,
      IsPosted: false,
      VoucherId: v.Id,
    });
    expect((await s.api("/VoucherApproval")).status).toBe(204);
    expect(
      await body(await s.api(`/JournalEntryVouchers/SupplierInvoices/${String(v.Id)}`), 200),
    ).toMatchObject({ VoucherState: "IsDraft", ApprovalState: "Rejected" });
    expect(
      (
        await s.api(
          `/JournalEntryVouchers/SupplierInvoices/${String(v.Id)}`,
          patch([{ op: "replace", path: "/InvoiceNo", value: "F-10" }]),
        )
      ).status,
    ).toBe(200);
  });

  it("approves: the draft is posted to the ledger under its own id, VAT split off by the account's code", async () => {
    const s = await session();
    const acc = await accounts(s);
    const supplier = await body(await s.api("/Suppliers", json({ Name: "L AS" })), 201);
    const v = await body(
      await s.api(
        "/JournalEntryVouchers/SupplierInvoices",
        json({
          CurrencyCode: "NOK",
          VoucherDate: today(),
          InvoiceNo: "F-2",
          SupplierAccountId: supplier.SubledgerAccountId,
          CurrencyAmount: 1250,
          SupplierVoucherLines: [{ DebitAccountId: acc[4000], CurrencyAmount: 1250 }],
        }),
      ),
      201,
    );
    await submit(s, v.Id);
    expect(await approve(s, v.Id)).toEqual({
      InApprovalWorkflow: false,
      IsPosted: true,
      VoucherId: v.Id,
    });
    expect(
      await body(await s.api(`/JournalEntryVouchers/SupplierInvoices/${String(v.Id)}`), 200),
    ).toMatchObject({ VoucherState: "IsPosted", ApprovalState: "Approved" });
    const tx = await body<Dto[]>(
      await s.api(`/AccountTransactions?fromDate=${today()}&toDate=${today()}`),
      200,
    );
    const mine = tx.filter((t) => t.VoucherId === v.Id);
    expect(mine.map((t) => [t.AccountNo, t.Amount])).toEqual([
      [4000, 1000],
      [2710, 250],
      [2400, -1250],
    ]);
    expect(mine[0]).toMatchObject({ VoucherType: "IncomingInvoice" });
    expect(
      (await body<Dto[]>(await s.api("/JournalEntryVouchers?isPosted=true"), 200)).map((r) => r.Id),
    ).toEqual([v.Id]);
  });

  it("requires a Comment on the verdict: 400", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    await submit(s, v.Id);
    expect(
      (await s.api(`/VoucherApproval/${String(v.Id)}`, json({ VoucherApprovalStatus: "Approve" })))
        .status,
    ).toBe(400);
  });

  it("answers 404 for a verdict on a voucher that is not waiting for approval", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    expect(
      (
        await s.api(
          `/VoucherApproval/${String(v.Id)}`,
          json({ Comment: "ok", VoucherApprovalStatus: "Approve" }),
        )
      ).status,
    ).toBe(404);
  });

  it("refuses to delete a posted voucher: 409 Object conflict, already posted", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    await submit(s, v.Id);
    await approve(s, v.Id);
    const res = await s.api(`/JournalEntryVouchers/${String(v.Id)}`, { method: "DELETE" });
    expect(await body(res, 409)).toEqual(
      expect.objectContaining({
        title: "Object conflict",
        detail: `Voucher with id = ${String(v.Id)} is already posted.`,
      }),
    );
  });

  it("refuses to patch or delete a line of a posted voucher: 409", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    await submit(s, v.Id);
    await approve(s, v.Id);
    const line = `/JournalEntryVouchers/ManualJournals/${String(v.Id)}/VoucherLines/${String((v.ManualVoucherLines as Dto[])[0]?.Id)}`;
    expect(
      await body(
        await s.api(line, patch([{ op: "replace", path: "/CurrencyAmount", value: 1 }])),
        409,
      ),
    ).toMatchObject({ title: "Object conflict" });
    expect((await s.api(line, { method: "DELETE" })).status).toBe(409);
  });
});

describe("VoucherDocumentation", () => {
  it("puts a PDF on an imported voucher (202) and lists it with HasPdf, filtered by id and voucherNo", async () => {
    const s = await session();
    const acc = await accounts(s);
    const v = await importedVoucher(s, acc);
    await importedVoucher(s, acc);
    expect(
      (
        await s.api(
          `/VoucherDocumentation?id=${String(v.Id)}`,
          upload(PDF, "application/pdf", "bilag.pdf", "PUT"),
        )
      ).status,
    ).toBe(202);
    const rows = await body<Dto[]>(await s.api(`/VoucherDocumentation?id=${String(v.Id)}`), 200);
    expect(rows).toEqual([
      {
        HasEhf: false,
        HasImages: false,
        HasPdf: true,
        HasSalesOrderAttachments: false,
        IsImported: true,
        VoucherId: v.Id,
        VoucherNo: v.VoucherNo,
        VoucherType: "ManualJournal",
      },
    ]);
    expect(
      (
        await body<Dto[]>(
          await s.api(`/VoucherDocumentation?voucherNo=${String(v.VoucherNo)}`),
          200,
        )
      ).map((r) => r.VoucherId),
    ).toEqual([v.Id]);
  });

  it("refuses a PDF on a voucher not imported through POST /Vouchers/*: 400", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    await submit(s, v.Id);
    await approve(s, v.Id);
    const res = await s.api(
      `/VoucherDocumentation?id=${String(v.Id)}`,
      upload(PDF, "application/pdf", "a.pdf", "PUT"),
    );
    expect(await body(res, 400)).toMatchObject({
      title: "VoucherDocumentation validation error(s)",
    });
  });

  it("refuses a file that is not sent as application/pdf: 400", async () => {
    const s = await session();
    const v = await importedVoucher(s, await accounts(s));
    expect(
      (
        await s.api(
          `/VoucherDocumentation?id=${String(v.Id)}`,
          upload(PDF, "image/png", "a.png", "PUT"),
        )
      ).status,
    ).toBe(400);
  });

  it("refuses a file labelled application/pdf that is not a PDF: 400", async () => {
    const s = await session();
    const v = await importedVoucher(s, await accounts(s));
    expect(
      (
        await s.api(
          `/VoucherDocumentation?id=${String(v.Id)}`,
          upload(PNG, "application/pdf", "a.pdf", "PUT"),
        )
      ).status,
    ).toBe(400);
  });

  it("lets only the integration that put the first PDF replace it: the owner's PUT replaces (202), another's is refused (400)", async () => {
    const s = await session();
    const v = await importedVoucher(s, await accounts(s));
    const path = `/VoucherDocumentation?id=${String(v.Id)}`;
    expect((await s.api(path, upload(PDF, "application/pdf", "first.pdf", "PUT"))).status).toBe(
      202,
    );
    const other = await otherIntegration(s);
    expect((await other(path, upload(PDF, "application/pdf", "theirs.pdf", "PUT"))).status).toBe(
      400,
    );
    const second = new TextEncoder().encode("%PDF-1.7\nsecond\n%%EOF\n");
    expect((await s.api(path, upload(second, "application/pdf", "second.pdf", "PUT"))).status).toBe(
      202,
    );
    const zipped = new Uint8Array(
      await (
        await s.api(`/VoucherDocumentation/Download?id=${String(v.Id)}&documentationType=Pdf`)
      ).arrayBuffer(),
    );
    const text = new TextDecoder("latin1").decode(zipped);
    expect(text).toContain("second.pdf");
    expect(text).not.toContain("first.pdf");
  });

  it("downloads the PDF as a stored zip whose entry carries the file and its CRC-32", async () => {
    const s = await session();
    const v = await importedVoucher(s, await accounts(s));
    await s.api(
      `/VoucherDocumentation?id=${String(v.Id)}`,
      upload(PDF, "application/pdf", "bilag.pdf", "PUT"),
    );
    const res = await s.api(
      `/VoucherDocumentation/Download?id=${String(v.Id)}&documentationType=pdf`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect(view.getUint16(8, true)).toBe(0); // stored
    expect(view.getUint32(14, true)).toBe(crc32(PDF));
    expect(view.getUint32(18, true)).toBe(PDF.byteLength);
    const nameLength = view.getUint16(26, true);
    expect(new TextDecoder().decode(bytes.subarray(30, 30 + nameLength))).toBe("bilag.pdf");
    expect(bytes.subarray(30 + nameLength, 30 + nameLength + PDF.byteLength)).toEqual(PDF);
  });

  it("answers 204 when the voucher has no documentation of the type asked for", async () => {
    const s = await session();
    const v = await importedVoucher(s, await accounts(s));
    expect(
      (await s.api(`/VoucherDocumentation/Download?id=${String(v.Id)}&documentationType=Pdf`))
        .status,
    ).toBe(204);
    await s.api(
      `/VoucherDocumentation?id=${String(v.Id)}`,
      upload(PDF, "application/pdf", "a.pdf", "PUT"),
    );
    expect(
      (await s.api(`/VoucherDocumentation/Download?id=${String(v.Id)}&documentationType=Images`))
        .status,
    ).toBe(204);
  });

  it("keeps a draft's pages with the posted voucher as its images", async () => {
    const s = await session();
    const v = await manualDraft(s, await accounts(s));
    await s.api(
      `/JournalEntryVouchers/${String(v.Id)}/VoucherPages`,
      upload(PNG, "image/png", "scan.png"),
    );
    await submit(s, v.Id);
    await approve(s, v.Id);
    expect(
      (await body<Dto[]>(await s.api(`/VoucherDocumentation?id=${String(v.Id)}`), 200))[0],
    ).toMatchObject({ HasImages: true, HasPdf: false, IsImported: false });
    const res = await s.api(
      `/VoucherDocumentation/Download?id=${String(v.Id)}&documentationType=Images`,
    );
    expect(res.status).toBe(200);
    expect(new TextDecoder("latin1").decode(await res.arrayBuffer())).toContain("scan.png");
  });

  it("computes the standard CRC-32 check value", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
  });
});
