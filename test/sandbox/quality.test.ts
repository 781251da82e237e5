/**
 * The quality module and client documents beyond the published assignment reads, shape-agnostic,
 * with the seed's rules: an assignment is deleted only as a draft; its PATCH body has no status;
 * deadlines are per accounting year; tasks filter on `includeInternal` and `includeAvailable`;
 * documents filter on `assignmentId`, `taskId` and `serviceAreaId`, have versions, and read as the
 * current version's file; folders patch with JSON Patch. Template access roles carry
 * `IsTemplateRole`.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { fresh, json, putRecords, session } from "./helpers";

beforeEach(() => fresh());

type Dto = Record<string, unknown>;

const patchOf = (ops: unknown[]) => json(ops, "PATCH", "application/json-patch+json");

async function answer<T = Dto>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  const text = await res.text();
  return (text === "" ? null : JSON.parse(text)) as T;
}

function file(text: string, name: string, fields: Record<string, string> = {}): RequestInit {
  const form = new FormData();
  form.append("file", new File([new TextEncoder().encode(text)], name, { type: "text/plain" }));
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return { method: "POST", body: form };
}

describe("Assignments", () => {
  it("creates a draft from the caller's object, with the seed's field names as it spells them, read back by the published views", async () => {
    const s = await session();
    const sent = {
      Description: "Årsoppgjør",
      CustomerContactPersonId: 11,
      CurrentAgreementDate: "2026-01-01",
      NoticePeriod: 3,
      AuidtorId: 7,
      CustomerJobStop: false,
      IsCustomerProspect: true,
    };
    const created = await answer(await s.api("/Assignments", json(sent)), 201);
    expect(created).toEqual({ Id: expect.any(Number), ...sent, Status: "Draft" });
    const general = await answer(await s.api(`/Assignments/${created.Id}`), 200);
    expect(general).toMatchObject({
      Id: created.Id,
      Description: "Årsoppgjør",
      CustomerContactPersonId: 11,
      CurrentAgreementDate: "2026-01-01",
      NoticePeriod: 3,
      AuditorId: 7,
      Status: "Draft",
    });
    expect(general).not.toHaveProperty("AuidtorId");
    expect(await answer<Dto[]>(await s.api("/Assignments?status=draft"), 200)).toHaveLength(1);
  });

  it("patches without a status, and deletes only drafts", async () => {
    const s = await session();
    const draft = await answer(await s.api("/Assignments", json({ Description: "a" })), 201);
    const refused = await answer<Dto>(
      await s.api(
        `/Assignments/${draft.Id}`,
        patchOf([{ op: "replace", path: "/Status", value: "Active" }]),
      ),
      400,
    );
    expect(refused).toMatchObject({
      title: "Assignment validation error(s)",
      detail: "Status cannot be changed with PATCH.",
    });
    expect(
      await answer(
        await s.api(
          `/Assignments/${draft.Id}`,
          patchOf([{ op: "replace", path: "/Description", value: "b" }]),
        ),
        200,
      ),
    ).toEqual({ ...draft, Description: "b" });

    const active = await answer(
      await s.api("/Assignments", json({ Description: "c", Status: "active" })),
      201,
    );
    expect(active.Status).toBe("Active");
    expect(
      (await answer<Dto>(await s.api(`/Assignments/${active.Id}`, { method: "DELETE" }), 409))
        .title,
    ).toBe("Assignment conflict");
    await answer(await s.api(`/Assignments/${draft.Id}`, { method: "DELETE" }), 200);
    await answer(await s.api(`/Assignments/${draft.Id}`), 404);
    expect(
      (await answer<Dto>(await s.api("/Assignments", json({ Status: "Closed" })), 400)).title,
    ).toBe("Assignment validation error(s)");
  });

  it("keeps deadlines per accounting year under an existing assignment", async () => {
    const s = await session();
    const a = await answer(await s.api("/Assignments", json({ Description: "a" })), 201);
    await answer(
      await s.api("/Assignments/999999999/Deadlines?accountingYear=2026", json({})),
      404,
    );
    expect(
      (
        await answer<Dto>(
          await s.api(`/Assignments/${a.Id}/Deadlines`, json({ due: "2026-05-31" })),
          400,
        )
      ).errors,
    ).toEqual({ accountingYear: ["The accountingYear field is required."] });
    const d2026 = await answer(
      await s.api(
        `/Assignments/${a.Id}/Deadlines?accountingYear=2026`,
        json({ due: "2026-05-31" }),
      ),
      201,
    );
    const d2025 = await answer(
      await s.api(
        `/Assignments/${a.Id}/Deadlines?accountingYear=2025`,
        json({ due: "2025-05-31" }),
      ),
      201,
    );
    expect(
      await answer(await s.api(`/Assignments/${a.Id}/Deadlines?accountingYear=2026`), 200),
    ).toEqual([d2026]);
    expect(await answer(await s.api(`/Assignments/${a.Id}/Deadlines`), 200)).toEqual([
      d2026,
      d2025,
    ]);
    expect(
      await answer(
        await s.api(
          `/Assignments/${a.Id}/Deadlines/${d2025.Id}`,
          patchOf([{ op: "replace", path: "/due", value: "2025-06-30" }]),
        ),
        200,
      ),
    ).toEqual({ ...d2025, due: "2025-06-30" });
    await answer(
      await s.api(`/Assignments/${a.Id}/Deadlines/${d2025.Id}`, { method: "DELETE" }),
      200,
    );
    await answer(await s.api(`/Assignments/${a.Id}/Deadlines/${d2025.Id}`), 404);
  });

  it("lists service tasks, internal and available ones only when asked for", async () => {
    const s = await session();
    const a = await answer(await s.api("/Assignments", json({ Description: "a" })), 201);
    const task = (Id: number, meta: Dto) => ({ Id, body: { name: `task ${Id}` }, meta });
    await putRecords(
      s,
      "AssignmentTask",
      [task(1, {}), task(2, { internal: true }), task(3, { available: true })],
      String(a.Id),
    );
    const ids = async (q: string) =>
      (
        (await answer<Dto[] | null>(await s.api(`/Assignments/${a.Id}/Services/Tasks${q}`), 200)) ??
        []
      ).map((t) => t.Id);
    expect(await ids("")).toEqual([1]);
    expect(await ids("?includeInternal=true")).toEqual([1, 2]);
    expect(await ids("?includeInternal=true&includeAvailable=true")).toEqual([1, 2, 3]);
    expect(
      (
        await answer<Dto>(
          await s.api(`/Assignments/${a.Id}/Services/Tasks?includeAvailable=yes`),
          400,
        )
      ).title,
    ).toBe("Unable to cast object(s)");
  });

  it("answers the auditing company when the client has one", async () => {
    const s = await session();
    await answer(await s.api("/AuditingCompany"), 204);
    await putRecords(s, "AuditingCompany", [{ Id: 77, body: { name: "Revisor AS" }, meta: {} }]);
    expect(await answer(await s.api("/AuditingCompany"), 200)).toEqual({
      Id: 77,
      name: "Revisor AS",
    });
  });
});

describe("Quality documents and folders", () => {
  it("uploads documents with versions, filters them by their links, and reads the current version's file", async () => {
    const s = await session();
    const doc = await answer(
      await s.api(
        "/qualityDocuments/Documents/upload?assignmentId=5",
        file("first", "plan.txt", { taskId: "9", caption: "Plan" }),
      ),
      201,
    );
    expect(doc).toEqual({ Id: expect.any(Number), taskId: "9", caption: "Plan" });
    const other = await answer(
      await s.api(
        "/qualityDocuments/Documents/upload",
        file("x", "other.txt", { serviceAreaId: "3" }),
      ),
      201,
    );
    const ids = async (q: string) =>
      (
        (await answer<Dto[] | null>(
          await s.api(`/qualityDocuments/Documents${q}`),
          q.includes("=404") ? 204 : 200,
        )) ?? []
      ).map((d) => d.Id);
    expect(await ids("?assignmentId=5")).toEqual([doc.Id]);
    expect(await ids("?taskId=9&assignmentId=5")).toEqual([doc.Id]);
    expect(await ids("?serviceAreaId=3")).toEqual([other.Id]);
    expect(await ids("?assignmentId=404")).toEqual([]);

    const first = await s.api(`/qualityDocuments/Documents/${doc.Id}`);
    expect([first.status, first.headers.get("content-type"), await first.text()]).toEqual([
      200,
      "text/plain",
      "first",
    ]);
    await answer(
      await s.api(
        `/qualityDocuments/Documents/${doc.Id}/AddDocumentVersion`,
        file("second", "plan-v2.txt"),
      ),
      200,
    );
    const current = await s.api(`/qualityDocuments/Documents/${doc.Id}`);
    expect([await current.text(), current.headers.get("content-disposition")]).toEqual([
      "second",
      'attachment; filename="plan-v2.txt"',
    ]);
    await answer(
      await s.api("/qualityDocuments/Documents/123456789/AddDocumentVersion", file("x", "x.txt")),
      404,
    );
  });

  it("keeps folders of each area apart and patches a folder with JSON Patch", async () => {
    const s = await session();
    const parent = await answer(
      await s.api("/qualityDocuments/Folders", json({ label: "Root" })),
      201,
    );
    const child = await answer(
      await s.api("/qualityDocuments/Folders", json({ label: "Child" })),
      201,
    );
    const moved = await answer(
      await s.api(
        `/qualityDocuments/Folders/${child.Id}`,
        patchOf([
          { op: "replace", path: "/label", value: "Renamed" },
          { op: "add", path: "/under", value: parent.Id },
        ]),
      ),
      200,
    );
    expect(moved).toEqual({ Id: child.Id, label: "Renamed", under: parent.Id });
    await answer(await s.api(`/qualitysettings/Folders/${child.Id}`), 404);
    await answer(await s.api("/clientDocuments/Folders"), 204);
    const client = await answer(
      await s.api("/clientDocuments/Folders", json({ label: "Bilag" })),
      201,
    );
    await answer(await s.api(`/clientDocuments/Folders/${client.Id}`, { method: "DELETE" }), 200);
    await answer(await s.api("/clientDocuments/TemplateFolder"), 204);
  });
});

describe("Template access roles", () => {
  it("lists the roles a template client hands down, with IsTemplateRole", async () => {
    const s = await session();
    const roles = await answer<Dto[]>(await s.api("/ClientAdmin/TemplateAccessRoles"), 200);
    expect(roles.map((r) => [r.AccessRoleName, r.IsTemplateRole])).toEqual([
      ["Administrator", false],
      ["Accountant", true],
      ["Payroll", true],
      ["Read only", true],
    ]);
  });
});
