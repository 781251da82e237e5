/**
 * The groups newer than the published document, whose shapes are unpublished: the sandbox stores
 * the caller's own JSON object, adds only `Id` (GUIDs for imports, bank transfers and journals,
 * integers otherwise), marks every answer `X-Sandbox-Shape: unpublished`, and enforces only the
 * stated rules: budget delete removes its lines; an import posts once and deletes only before
 * posting; shareholders and UBOs hang under an existing contact; read-only access is refused on
 * writes. The property names in these bodies are deliberately the caller's own, not guesses at
 * v2's.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { api, control, fresh, json, putRecords, session, storedKinds, tokenFor } from "./helpers";

beforeEach(() => fresh());

type Session = Awaited<ReturnType<typeof session>>;
type Dto = Record<string, unknown>;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const patchOf = (ops: unknown[]) => json(ops, "PATCH", "application/json-patch+json");

/** The answer's JSON after checking its status and the unpublished-shape marker. */
async function answer<T = Dto>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  expect(res.headers.get("x-sandbox-shape")).toBe("unpublished");
  const text = await res.text();
  return (text === "" ? null : JSON.parse(text)) as T;
}

const customer = async (s: Session) => {
  const res = await s.api(
    "/Customers",
    json({ Name: "Fjord AS", MailAddress: { City: "Oslo", ZipCode: "0150" } }),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as Dto).Id as number;
};

describe("Budgets", () => {
  it("stores the caller's object with an integer Id, reads it at /Budget, patches it with JSON Patch, and gives lines their own ids", async () => {
    const s = await session();
    const budget = await answer(
      await s.api("/Budgets", json({ title: "2026", nested: { a: 1 }, Id: "ignored" })),
      201,
    );
    expect(budget).toEqual({ Id: expect.any(Number), title: "2026", nested: { a: 1 } });
    expect(await answer(await s.api(`/Budget/${budget.Id}`), 200)).toEqual(budget);
    expect(await answer(await s.api("/Budget"), 200)).toEqual([budget]);
    const patched = await answer(
      await s.api(
        `/Budgets/${budget.Id}`,
        patchOf([
          { op: "replace", path: "/nested/a", value: 2 },
          { op: "add", path: "/more", value: true },
        ]),
      ),
      200,
    );
    expect(patched).toEqual({ Id: budget.Id, title: "2026", nested: { a: 2 }, more: true });
    expect(
      (await s.api(`/Budgets/${budget.Id}`, json([{ op: "add", path: "/x", value: 1 }], "PATCH")))
        .status,
    ).toBe(415);
    expect(
      (await s.api(`/Budgets/${budget.Id}`, patchOf([{ op: "replace", path: "/Id", value: 1 }])))
        .status,
    ).toBe(400);

    const line = await answer(
      await s.api(`/Budgets/${budget.Id}/Lines`, json({ month: 1, amount: 100 })),
      201,
    );
    expect(line.Id).toEqual(expect.any(Number));
    expect(line.Id).not.toBe(budget.Id);
    const changed = await answer(
      await s.api(
        `/Budgets/${budget.Id}/Lines/${line.Id}`,
        patchOf([{ op: "replace", path: "/amount", value: 150 }]),
      ),
      200,
    );
    expect(await answer(await s.api(`/Budgets/${budget.Id}/Lines/${line.Id}`), 200)).toEqual(
      changed,
    );
    const other = await answer(await s.api("/Budgets", json({ title: "2027" })), 201);
    expect(
      (await answer<Dto>(await s.api(`/Budgets/${other.Id}/Lines/${line.Id}`), 404)).title,
    ).toBe("Object(s) not found");
  });

  it("removes a budget's lines when the budget is deleted", async () => {
    const s = await session();
    const budget = await answer(await s.api("/Budgets", json({ title: "2026" })), 201);
    for (const month of [1, 2, 3])
      await answer(await s.api(`/Budgets/${budget.Id}/Lines`, json({ month })), 201);
    const kept = await answer(await s.api("/Budgets", json({ title: "kept" })), 201);
    const keptLine = await answer(
      await s.api(`/Budgets/${kept.Id}/Lines`, json({ month: 1 })),
      201,
    );
    expect((await storedKinds(s)).BudgetLine).toBe(4);

    await answer(await s.api(`/Budgets/${budget.Id}`, { method: "DELETE" }), 200);
    expect((await storedKinds(s)).BudgetLine).toBe(1);
    await answer(await s.api(`/Budget/${budget.Id}`), 404);
    expect(await answer(await s.api(`/Budgets/${kept.Id}/Lines/${keptLine.Id}`), 200)).toEqual(
      keptLine,
    );
  });

  it("refuses a body that is not a JSON object, and stores nothing", async () => {
    const s = await session();
    for (const body of ["[1,2]", "42", "null"]) {
      const res = await s.api("/Budgets", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      expect((await answer<Dto>(res, 400)).title).toBe("Budget validation error(s)");
    }
    expect((await storedKinds(s)).Budget).toBeUndefined();
  });
});

describe("Imports", () => {
  const upload = (text: string) => {
    const form = new FormData();
    form.append(
      "file",
      new File([new TextEncoder().encode(text)], "import.csv", { type: "text/csv" }),
    );
    form.append("label", "January");
    return { method: "POST", body: form };
  };

  it("takes a file or a JSON body, posts once (a second post is a conflict), and deletes only before posting", async () => {
    const s = await session();
    const fromFile = await answer(await s.api("/Imports/Upload", upload("a;b\n1;2\n")), 201);
    expect(fromFile).toEqual({ Id: expect.stringMatching(GUID), label: "January" });
    const fromJson = await answer(
      await s.api("/Imports/Upload", json({ lines: [{ amount: 1 }] })),
      201,
    );
    expect(fromJson).toEqual({ Id: expect.stringMatching(GUID), lines: [{ amount: 1 }] });
    expect(await answer(await s.api("/Imports"), 200)).toEqual([fromFile, fromJson]);

    expect(
      await answer(await s.api(`/Imports/${fromFile.Id}/Post`, { method: "POST" }), 200),
    ).toEqual(fromFile);
    const again = await answer<Dto>(
      await s.api(`/Imports/${fromFile.Id}/Post`, { method: "POST" }),
      409,
    );
    expect(again).toMatchObject({
      title: "Import conflict",
      detail: `Import with id = ${String(fromFile.Id)} is already posted.`,
    });
    expect(
      (await answer<Dto>(await s.api(`/Imports/${fromFile.Id}`, { method: "DELETE" }), 409)).title,
    ).toBe("Import conflict");
    expect(await answer(await s.api(`/Imports/${fromFile.Id}`), 200)).toEqual(fromFile);

    await answer(await s.api(`/Imports/${fromJson.Id}`, { method: "DELETE" }), 200);
    await answer(await s.api(`/Imports/${fromJson.Id}`), 404);
    await answer(await s.api(`/Imports/${fromJson.Id}/Post`, { method: "POST" }), 404);
    expect((await storedKinds(s)).VoucherFile).toBe(1);
  });
});

describe("ContactShareholders and ContactUBOs", () => {
  it("hang under an existing contact: an unknown one is a 404, and nothing is stored", async () => {
    const s = await session();
    const unknown = 999_999_999;
    expect(
      (await answer<Dto>(await s.api(`/ContactShareholders/${unknown}`, json({ share: 0.5 })), 404))
        .detail,
    ).toBe(`Contact with id = ${unknown} not found.`);
    await answer(
      await s.api(`/ContactShareholders?contactId=${unknown}`, json({ share: 0.5 })),
      404,
    );
    await answer(await s.api(`/ContactUBOs/${unknown}`, json({ share: 0.5 })), 404);
    await answer(await s.api(`/ContactShareholders/${unknown}/1`), 404);
    expect(
      (await answer<Dto>(await s.api("/ContactShareholders", json({ share: 0.5 })), 400)).errors,
    ).toEqual({ contactId: ["The contactId field is required."] });
    const kinds = await storedKinds(s);
    expect([kinds.ContactShareholder, kinds.ContactUBO]).toEqual([undefined, undefined]);
  });

  it("create under a customer (by path, or by contactId on the seed's POST), list with contactIds, and patch and delete under their contact", async () => {
    const s = await session();
    const [a, b] = [await customer(s), await customer(s)];
    const first = await answer(
      await s.api(`/ContactShareholders/${a}`, json({ owner: "Kari", share: 0.5 })),
      201,
    );
    const second = await answer(
      await s.api(`/ContactShareholders?contactId=${b}`, json({ owner: "Ola", share: 1 })),
      201,
    );
    expect(first).toEqual({ Id: expect.any(Number), owner: "Kari", share: 0.5 });
    expect(await answer(await s.api("/ContactShareholders"), 200)).toEqual([first, second]);
    expect(await answer(await s.api(`/ContactShareholders?contactIds=${b}`), 200)).toEqual([
      second,
    ]);
    await answer(await s.api(`/ContactShareholders/${b}/${first.Id}`), 404);
    expect(
      await answer(
        await s.api(
          `/ContactShareholders/${a}/${first.Id}`,
          patchOf([{ op: "replace", path: "/share", value: 0.6 }]),
        ),
        200,
      ),
    ).toEqual({ ...first, share: 0.6 });
    await answer(await s.api(`/ContactShareholders/${a}/${first.Id}`, { method: "DELETE" }), 200);
    expect(await answer(await s.api("/ContactShareholders"), 200)).toEqual([second]);

    const ubo = await answer(await s.api(`/ContactUBOs/${a}`, json({ grounds: "votes" })), 201);
    expect(await answer(await s.api(`/ContactUBOs/${a}/${ubo.Id}`), 200)).toEqual(ubo);
  });

  it("are not kept for employee contacts", async () => {
    const s = await session();
    await putRecords(s, "Employee", [{ Id: 4242, FirstName: "Kari" }]);
    expect((await answer<Dto>(await s.api("/ContactUBOs/4242", json({})), 400)).title).toBe(
      "ContactUBO validation error(s)",
    );
  });
});

describe("Read-only access", () => {
  it("reads but is refused every write, by privilege and by the contact access policy", async () => {
    const s = await session("production", {
      privileges: [
        "Budget",
        "Import",
        "BankTransfer",
        "Customer",
        "Shareholder",
        "UBO",
        "CommonServices",
        "Supplier_Full",
      ],
    });
    await putRecords(s, "Customer", [{ Id: 5005, Name: "Fjord AS" }]);
    for (const path of [
      "/Budget",
      "/Imports",
      "/BankTransfers",
      "/ContactShareholders",
      "/ContactUBOs",
      "/PaymentTermSuppliers",
    ])
      await answer(await s.api(path), 204);
    for (const path of ["/Budgets", "/Imports/Upload", "/BankTransfers", "/PaymentTermSuppliers"]) {
      expect((await answer<Dto>(await s.api(path, json({})), 403)).title, path).toBe("Forbidden");
    }
    // Supplier_Full lets the call through the route, but this contact is a customer: Customer reads
    // only.
    const refused = await answer<Dto>(
      await s.api("/ContactShareholders/5005", json({ share: 1 })),
      403,
    );
    expect(refused.detail).toBe(
      "Contact with id = 5005 is a customer; changing its records needs Shareholder_Full or Customer_Full.",
    );
    await answer(await s.api("/ContactUBOs/5005", json({ share: 1 })), 403);
    expect(await storedKinds(s)).not.toHaveProperty("ContactShareholder");
  });
});

describe("PaymentTermSuppliers, BankTransfers and the outgoing journal posts", () => {
  it("serve all five operations of supplier payment terms with integer ids", async () => {
    const s = await session();
    const term = await answer(await s.api("/PaymentTermSuppliers", json({ days: 30 })), 201);
    expect(term.Id).toEqual(expect.any(Number));
    expect(
      await answer(
        await s.api(
          `/PaymentTermSuppliers/${term.Id}`,
          patchOf([{ op: "replace", path: "/days", value: 45 }]),
        ),
        200,
      ),
    ).toEqual({ Id: term.Id, days: 45 });
    expect(await answer(await s.api("/PaymentTermSuppliers?PageSize=1&Fields=days"), 200)).toEqual([
      { days: 45 },
    ]);
    await answer(await s.api(`/PaymentTermSuppliers/${term.Id}`, { method: "DELETE" }), 200);
    await answer(await s.api(`/PaymentTermSuppliers/${term.Id}`), 404);
  });

  it("give bank transfers GUIDs, poll them by change time, and delete them; there is no PATCH", async () => {
    const s = await session();
    const before = new Date(Date.now() - 1000).toISOString();
    const transfer = await answer(await s.api("/BankTransfers", json({ amount: 10 })), 201);
    expect(transfer).toEqual({ Id: expect.stringMatching(GUID), amount: 10 });
    expect(
      await answer(
        await s.api(`/BankTransfers?lastChangedDateTimeOffsetGreaterThan=${before}`),
        200,
      ),
    ).toEqual([transfer]);
    await answer(
      await s.api(
        `/BankTransfers?lastChangedDateTimeOffsetGreaterThan=${new Date(Date.now() + 60_000).toISOString()}`,
      ),
      204,
    );
    expect(
      (await s.api(`/BankTransfers/${transfer.Id}`, patchOf([{ op: "add", path: "/a", value: 1 }])))
        .status,
    ).toBe(405);
    await answer(await s.api(`/BankTransfers/${transfer.Id}`, { method: "DELETE" }), 200);
    await answer(await s.api(`/BankTransfers/${transfer.Id}`), 404);
  });

  it("store outgoing invoice and credit-note journals, readable only by the integration that posted them", async () => {
    const s = await session();
    const invoice = await answer(
      await s.api("/Vouchers/OutgoingInvoiceJournals", json({ lines: [] })),
      201,
    );
    const note = await answer(
      await s.api("/Vouchers/OutgoingCreditNoteJournals", json({ lines: [] })),
      201,
    );
    expect([invoice.Id, note.Id]).toEqual([
      expect.stringMatching(GUID),
      expect.stringMatching(GUID),
    ]);
    // The invoice journal's GET is published: OutgoingInvoiceVoucherDto, filled from the stored
    // properties of its names.
    const read = await s.api(`/Vouchers/OutgoingInvoiceJournals/${invoice.Id}`);
    expect(read.headers.get("x-sandbox-shape")).toBeNull();
    expect(await read.json()).toMatchObject({
      Id: invoice.Id,
      InvoiceNo: null,
      VoucherNo: null,
      OutgoingInvoiceLines: [],
      CreatedDateTimeOffset: expect.any(String),
    });
    expect(
      await answer(await s.api(`/Vouchers/OutgoingCreditNoteJournals/${note.Id}`), 200),
    ).toEqual(note);
    await answer(await s.api(`/Vouchers/OutgoingCreditNoteJournals/${invoice.Id}`), 404);
    const added = await control<{ clientKey: string }>(
      "POST",
      `/clients/demo/${s.clientId}/integrations`,
      { name: "other-app" },
      201,
    );
    const other = await tokenFor("demo", added.clientKey);
    expect(
      (await api("demo", other, `/Vouchers/OutgoingInvoiceJournals/${invoice.Id}`)).status,
    ).toBe(404);
    await answer(await api("demo", other, `/Vouchers/OutgoingCreditNoteJournals/${note.Id}`), 404);
  });
});
