// Tests for the wizard's review step: a table per file, every entry with its outcome, and the conflict choice.
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { CURSOR_PATH, cursorFile, entry } from "../../test/importFixtures";
import { choiceKey } from "./plan";
import ReviewStep from "./ReviewStep";

describe("ReviewStep", () => {
  // Pins: each entry is a row with its name, outcome and action; only a conflict has a (labelled) choice.
  it("lists every entry with its outcome", () => {
    render(<ReviewStep files={[cursorFile()]} choices={{}} onChoose={vi.fn()} disabled={false} />);
    const table = screen.getByRole("table", { name: `Entries of Cursor — ${CURSOR_PATH}` });
    const rows = within(table).getAllByRole("row").slice(1);
    const read = rows.map((row) => {
      const [outcome, , action] = within(row).getAllByRole("cell");
      return [within(row).getByRole("rowheader").textContent, outcome?.textContent, action?.textContent];
    });
    expect(read).toEqual([
      ["github", "New", "Add"],
      ["files", "Identical", "Nothing to do"],
      ["linear", "Conflict", "What to do with linearSkipOverwriteKeep bothPlugboard's stays as it is."],
      ["broken", "Invalid", "Not imported"],
    ]);
    expect(screen.getAllByRole("combobox")).toHaveLength(1);
    expect(screen.getByRole("combobox", { name: "What to do with linear" })).toHaveValue("skip");
    expect(rows[0]).toHaveTextContent("Moved to keychain: env.GITHUB_TOKEN");
  });

  // Pins: choosing reports the entry's file, its name and the choice.
  it("reports a conflict choice", async () => {
    const user = userEvent.setup();
    const onChoose = vi.fn();
    render(<ReviewStep files={[cursorFile()]} choices={{}} onChoose={onChoose} disabled={false} />);
    await user.selectOptions(screen.getByRole("combobox", { name: "What to do with linear" }), "Keep both");
    expect(onChoose).toHaveBeenCalledWith(CURSOR_PATH, "linear", "rename");
  });

  // Pins: the choice shown follows `choices` and says what it does, and is read-only while applying.
  it("shows the current choice and locks it while applying", () => {
    render(<ReviewStep files={[cursorFile()]} choices={{ [choiceKey(CURSOR_PATH, "linear")]: "overwrite" }} onChoose={vi.fn()} disabled />);
    const select = screen.getByRole("combobox", { name: "What to do with linear" });
    expect(select).toHaveValue("overwrite");
    expect(select).toHaveAccessibleDescription("Cursor's replaces Plugboard's.");
    expect(select).toBeDisabled();
  });

  // Pins: a sanitised name shows the source name and the scope; an unreadable file shows its error, not a table.
  it("shows renames, scopes and unreadable files", () => {
    const renamed = entry({ name: "My-Notes", sourceName: "My Notes", scope: 'projects["/home/ada/app"]', outcome: { kind: "new" } });
    render(
      <ReviewStep
        files={[cursorFile({ entries: [renamed] }), cursorFile({ path: "/x/.mcp.json", error: "not JSON", entries: [] })]}
        choices={{}}
        onChoose={vi.fn()}
        disabled={false}
      />,
    );
    const header = screen.getByRole("rowheader");
    expect(header).toHaveTextContent("My-Noteswas My Notesprojects[\"/home/ada/app\"]");
    const broken = screen.getByRole("region", { name: "Cursor — /x/.mcp.json" });
    expect(broken).toHaveTextContent("Can't be read: not JSON");
    expect(within(broken).queryByRole("table")).not.toBeInTheDocument();
  });
});
