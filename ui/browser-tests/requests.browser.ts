// Browser flows of servers' requests for the person: an elicitation arriving as an event is answered with the typed
// content, Escape declines, a withdrawn request closes its dialog, one waiting when the window opened is shown, and
// sampling and roots requests send what was written. Every answer is read from the mocked IPC.
import { ELICITATION, ROOTS, SAMPLING } from "./fixtures";
import { expect, test } from "./test";

test("an elicitation arriving as an event is answered with the form's values, typed as the schema says", async ({
  page,
  ipc,
  open,
}) => {
  await open("/servers");
  await ipc.emitWhenHeard("pendingRequestArrived", { request: ELICITATION });
  const dialog = page.getByRole("dialog", { name: "files asks for information" });
  await expect(dialog.getByText("Who are you?")).toBeVisible();

  await dialog.getByRole("textbox", { name: /Your name/ }).fill("Ada");
  await dialog.getByRole("spinbutton", { name: /Your age/ }).fill("36");
  await dialog.getByRole("button", { name: "Accept" }).click();

  await expect(dialog).toBeHidden();
  const [answer, ...more] = ipc.calls("answerElicitation");
  expect(more).toEqual([]);
  expect(answer?.slice(0, 2)).toEqual([7, "accept"]);
  expect(JSON.parse(answer?.[2] ?? "null")).toStrictEqual({ name: "Ada", age: 36 });
});

test("Escape declines the request", async ({ page, ipc, open }) => {
  await open("/servers");
  await ipc.emitWhenHeard("pendingRequestArrived", { request: ELICITATION });
  const dialog = page.getByRole("dialog", { name: "files asks for information" });
  await expect(dialog.getByRole("textbox", { name: /Your name/ })).toBeFocused();

  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  expect(ipc.calls("answerElicitation")).toEqual([[7, "decline", null]]);
});

test("a request the server withdraws closes its dialog, unanswered, and shows the next one", async ({ page, ipc, open }) => {
  await open("/servers");
  await ipc.emitWhenHeard("pendingRequestArrived", { request: ELICITATION });
  await ipc.emit("pendingRequestArrived", { request: ROOTS });
  const form = page.getByRole("dialog", { name: "files asks for information" });
  await expect(form.getByText("1 more request is waiting after this one.")).toBeVisible();

  await ipc.emit("pendingRequestWithdrawn", { id: ELICITATION.id, reason: "cancelled" });
  await expect(form).toBeHidden();
  await expect(page.getByRole("dialog", { name: "files asks which folders it may use" })).toBeVisible();
  expect(ipc.calls("answerElicitation")).toEqual([]);
});

test("a request waiting when the window opened is shown; a sampling reply is sent with Enter", async ({
  page,
  ipc,
  open,
}) => {
  ipc.respond({ pendingRequests: [SAMPLING] });
  await open("/console");
  const dialog = page.getByRole("dialog", { name: "files asks for a message" });
  await expect(dialog.getByRole("region", { name: "System prompt" })).toContainText("You are terse.");
  await expect(dialog.getByRole("list", { name: "Messages" })).toContainText("Summarise /etc/hosts.");

  await dialog.getByRole("textbox", { name: /Your reply/ }).fill("Two lines: localhost.");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  expect(ipc.calls("answerSampling")).toEqual([[8, "Two lines: localhost."]]);
});

test("a roots request shares exactly the folders listed", async ({ page, ipc, open }) => {
  await open("/servers");
  await ipc.emitWhenHeard("pendingRequestArrived", { request: ROOTS });
  const dialog = page.getByRole("dialog", { name: "files asks which folders it may use" });
  await dialog.getByRole("button", { name: "Add a folder" }).click();
  await dialog.getByRole("textbox", { name: "Folder 1" }).fill("/home/ada/projects");
  await dialog.getByRole("button", { name: "Share folders" }).click();
  await expect(dialog).toBeHidden();
  expect(ipc.calls("answerRoots")).toEqual([[9, ["/home/ada/projects"]]]);
});
