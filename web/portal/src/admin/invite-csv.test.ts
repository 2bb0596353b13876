import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileNameOf, inviteCsv } from "./invite-csv.ts";

describe("the CSV of a batch of invitations", () => {
  it("writes RFC 4180 lines with a BOM, quotes what needs it and defuses formulas in free text", () => {
    const csv = inviteCsv([
      {
        token: "Kx7mQ2pZ9wRt",
        link: "https://p.example/?server=demo#token=Kx7mQ2pZ9wRt",
        label: "Spring fair, table 3",
        note: 'say "hi"',
        status: "Valid",
        usesAllowed: 1,
        used: 0,
        expiresAt: Date.UTC(2030, 0, 2, 3, 4, 5),
      },
      {
        token: "b",
        link: "l",
        label: "=HYPERLINK(1)",
        note: "-2",
        status: "Used up",
        usesAllowed: null,
        used: 3,
        expiresAt: null,
      },
    ]);
    assert.ok(csv.startsWith("\uFEFF"));
    assert.deepEqual(csv.slice(1).split("\r\n"), [
      "token,invite_link,label,note,status,uses_allowed,used,expires",
      'Kx7mQ2pZ9wRt,https://p.example/?server=demo#token=Kx7mQ2pZ9wRt,"Spring fair, table 3","say ""hi""",Valid,1,0,2030-01-02T03:04:05.000Z',
      "b,l,'=HYPERLINK(1),'-2,Used up,,3,",
      "",
    ]);
  });

  it("names files after the label", () => {
    assert.equal(fileNameOf("Spring fair: table 3/4", "csv"), "Spring-fair-table-3-4.csv");
    assert.equal(fileNameOf("Café", "svg"), "Cafe.svg");
    assert.equal(fileNameOf("***", "png"), "invites.png");
  });
});
