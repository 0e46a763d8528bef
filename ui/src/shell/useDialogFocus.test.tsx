// Tests for the dialog focus hook: where a dialog opens its focus, and where focus goes when it closes.
import * as Dialog from "@radix-ui/react-dialog";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type ReactNode, useState } from "react";
import { describe, expect, it } from "vitest";
import { useDialogFocus } from "./useDialogFocus";

/** A dialog the page mounts itself (no Dialog.Trigger), opened by a button, with `body` inside. */
function Harness({ body, keepOpener = true }: { body: ReactNode; keepOpener?: boolean }) {
  const [opener, setOpener] = useState<HTMLElement | null>(null);
  return (
    <>
      <h1 tabIndex={-1}>Page</h1>
      {(opener === null || keepOpener) && (
        <button type="button" onClick={(event) => setOpener(event.currentTarget)}>
          Open
        </button>
      )}
      {opener !== null && <TestDialog opener={opener} onClose={() => setOpener(null)} body={body} />}
    </>
  );
}

function TestDialog({ opener, onClose, body }: { opener: HTMLElement; onClose: () => void; body: ReactNode }) {
  const focus = useDialogFocus(opener);
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Content {...focus} aria-describedby={undefined}>
          <Dialog.Title>Test</Dialog.Title>
          <Dialog.Close aria-label="Close">✕</Dialog.Close>
          {body}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

describe("useDialogFocus", () => {
  // Pins: focus opens on the first field, not on the ✕ that comes first; Escape brings it back to the opener.
  it("opens on the first field and returns to the opener", async () => {
    const user = userEvent.setup();
    render(<Harness body={<input aria-label="Name" />} />);
    await user.click(screen.getByRole("button", { name: "Open" }));
    await waitFor(() => expect(screen.getByRole("textbox", { name: "Name" })).toHaveFocus());
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.getByRole("button", { name: "Open" })).toHaveFocus());
  });

  // Pins: an element marked data-autofocus wins over the first field; a dialog without fields opens on its submit.
  it("prefers data-autofocus, then the primary action", async () => {
    const user = userEvent.setup();
    const { unmount } = render(<Harness body={<><input aria-label="First" /><input aria-label="Second" data-autofocus /></>} />);
    await user.click(screen.getByRole("button", { name: "Open" }));
    await waitFor(() => expect(screen.getByRole("textbox", { name: "Second" })).toHaveFocus());
    unmount();

    render(<Harness body={<form><button type="button">Other</button><button type="submit">Send</button></form>} />);
    await user.click(screen.getByRole("button", { name: "Open" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toHaveFocus());
  });

  // Pins: when the opener is gone by the time the dialog closes (it went to another page), the page's h1 gets focus.
  it("falls back to the page heading", async () => {
    const user = userEvent.setup();
    render(<Harness keepOpener={false} body={<input aria-label="Name" />} />);
    await user.click(screen.getByRole("button", { name: "Open" }));
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.getByRole("heading", { name: "Page" })).toHaveFocus());
  });
});
