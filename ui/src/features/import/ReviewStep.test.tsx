// Tests for the wizard's review step: a table per file, every entry with its outcome, and the conflict choice.
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { CURSOR_PATH, cursorFile, entry, launchingFiles, PROJECT_PATH } from "../../test/importFixtures";
import { choiceKey, type LeftOut, NOTHING_LEFT_OUT } from "./plan";
import ReviewStep from "./ReviewStep";

/** The props every test passes unless it says otherwise: nothing chosen, nothing left out, editable. */
const BASE = { choices: {}, leftOut: NOTHING_LEFT_OUT, onChoose: vi.fn(), onTick: vi.fn(), disabled: false };

/** Nothing left out but what `fields` says. */
function leftOut(fields: Partial<LeftOut>): LeftOut {
  return { ...NOTHING_LEFT_OUT, ...fields };
}

describe("ReviewStep", () => {
  // Pins: each entry is a row with its name, outcome and action; only a conflict has a (labelled) choice.
  it("lists every entry with its outcome", () => {
    render(<ReviewStep {...BASE} files={[cursorFile()]} />);
    const table = screen.getByRole("table", { name: `Entries of Cursor — ${CURSOR_PATH}` });
    const rows = within(table).getAllByRole("row").slice(1);
    const read = rows.map((row) => {
      const [outcome, , action] = within(row).getAllByRole("cell");
      return [within(row).getByRole("rowheader").textContent, outcome?.textContent, action?.textContent];
    });
    expect(read).toEqual([
      ["github", "New", "Add github"],
      ["files", "Identical", "Nothing to do"],
      ["linear", "Conflict", "What to do with linearSkipOverwriteKeep bothPlugboard's stays as it is."],
      ["broken", "Invalid", "Not imported"],
    ]);
    expect(screen.getAllByRole("combobox")).toHaveLength(1);
    expect(screen.getByRole("combobox", { name: "What to do with linear" })).toHaveValue("skip");
    expect(screen.getByRole("checkbox", { name: "Add github" })).toBeChecked();
    expect(rows[0]).toHaveTextContent("Will move to keychain: env.GITHUB_TOKEN");
  });

  // Pins: choosing reports the entry's file, its name and the choice.
  it("reports a conflict choice", async () => {
    const user = userEvent.setup();
    const onChoose = vi.fn();
    render(<ReviewStep {...BASE} files={[cursorFile()]} onChoose={onChoose} />);
    await user.selectOptions(screen.getByRole("combobox", { name: "What to do with linear" }), "Keep both");
    expect(onChoose).toHaveBeenCalledWith(CURSOR_PATH, "linear", "rename");
  });

  // Pins: the choice shown follows `choices` and says what it does, and is read-only while applying.
  it("shows the current choice and locks it while applying", () => {
    render(<ReviewStep {...BASE} files={[cursorFile()]} choices={{ [choiceKey(CURSOR_PATH, "linear")]: "overwrite" }} disabled />);
    const select = screen.getByRole("combobox", { name: "What to do with linear" });
    expect(select).toHaveValue("overwrite");
    expect(select).toHaveAccessibleDescription("Cursor's replaces Plugboard's.");
    expect(select).toBeDisabled();
  });

  // Pins: a sanitised name shows the source name and the scope; an unreadable file shows its error, not a table.
  it("shows renames, scopes and unreadable files", () => {
    const renamed = entry({ name: "My-Notes", sourceName: "My Notes", scope: 'projects["/home/ada/app"]', outcome: { kind: "new" } });
    render(
      <ReviewStep {...BASE} files={[cursorFile({ entries: [renamed] }), cursorFile({ path: "/x/.mcp.json", error: "not JSON", entries: [] })]} />,
    );
    const header = screen.getByRole("rowheader");
    expect(header).toHaveTextContent("My-Noteswas My Notesprojects[\"/home/ada/app\"]");
    const broken = screen.getByRole("region", { name: "Cursor — /x/.mcp.json" });
    expect(broken).toHaveTextContent("Can't be read: not JSON");
    expect(within(broken).queryByRole("table")).not.toBeInTheDocument();
    expect(within(broken).queryByRole("checkbox")).not.toBeInTheDocument();
  });

  // Pins: unticking a file or a new entry reports its path (and the entry's name); each file has its own box.
  it("reports a file's and an entry's tick", async () => {
    const user = userEvent.setup();
    const onTick = vi.fn();
    render(<ReviewStep {...BASE} files={launchingFiles()} onTick={onTick} />);
    await user.click(screen.getByRole("checkbox", { name: `Import this file ${PROJECT_PATH}` }));
    expect(onTick).toHaveBeenLastCalledWith(PROJECT_PATH, null, false);
    await user.click(screen.getByRole("checkbox", { name: "Add sentry" }));
    expect(onTick).toHaveBeenLastCalledWith(CURSOR_PATH, "sentry", false);
  });

  // Pins: an unticked file's entries are unticked and locked (a conflict reads Skip), say why, and move no secret.
  it("shows an unticked file's entries as left out", () => {
    render(<ReviewStep {...BASE} files={launchingFiles()} leftOut={leftOut({ files: new Set([CURSOR_PATH]) })} choices={{ [choiceKey(CURSOR_PATH, "linear")]: "overwrite" }} />);
    expect(screen.getByRole("checkbox", { name: `Import this file ${CURSOR_PATH}` })).not.toBeChecked();
    const github = screen.getByRole("checkbox", { name: "Add github" });
    expect(github).not.toBeChecked();
    expect(github).toBeDisabled();
    expect(github).toHaveAccessibleDescription("Left out with its file.");
    const linear = screen.getByRole("combobox", { name: "What to do with linear" });
    expect(linear).toHaveValue("skip");
    expect(linear).toBeDisabled();
    expect(screen.queryByText(/Will move to keychain: env.GITHUB_TOKEN/)).not.toBeInTheDocument();
    // The other file is untouched.
    expect(screen.getByRole("checkbox", { name: "Add sqlite" })).toBeChecked();
    expect(screen.getByText("Will move to keychain: headers.Authorization")).toBeInTheDocument();
  });

  // Pins: under Local only the remote entries are left out and say so, the local ones stay in.
  it("leaves remote entries out under Local only", () => {
    render(<ReviewStep {...BASE} files={launchingFiles()} leftOut={leftOut({ localOnly: true })} />);
    expect(screen.getByRole("checkbox", { name: "Add github" })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Add sqlite" })).toBeChecked();
    for (const remote of ["sentry", "notion"]) {
      const box = screen.getByRole("checkbox", { name: `Add ${remote}` });
      expect(box).not.toBeChecked();
      expect(box).toHaveAccessibleDescription("Left out: a remote server, and Local only is on.");
    }
    expect(screen.getByRole("combobox", { name: "What to do with linear" })).toBeDisabled();
  });
});
