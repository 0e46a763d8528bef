// Browser flows of servers' requests for the person: an elicitation arriving as an event is answered with the typed
// content, Escape declines, a withdrawn request closes its dialog, one waiting when the window opened is shown, and
// sampling and roots requests send what was written. Every answer is read from the mocked IPC.
import { EVERY_SHAPE_DEFAULTS } from "../src/test/schemaFixtures";
import { ELICITATION, EVERY_SHAPE_ELICITATION, LONG_ELICITATION, ROOTS, SAMPLING } from "./fixtures";
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

test.describe("an elicitation with every shape the 2025-11-25 spec allows", () => {
  // The date-time field sends UTC; a fixed zone makes the typed local time a known instant.
  test.use({ timezoneId: "UTC" });

  // Pins: each shape is a titled control the person can use (single selects show titles, multi-selects are one
  // checkbox group each) and Accept sends the values picked, typed as the schema says.
  test("each shape is a titled control and Accept sends what was picked", async ({ page, ipc, open }) => {
    await open("/servers");
    await ipc.emitWhenHeard("pendingRequestArrived", { request: EVERY_SHAPE_ELICITATION });
    const dialog = page.getByRole("dialog", { name: "files asks for information" });

    await dialog.getByRole("textbox", { name: /Full name/ }).fill("Ada Lovelace");
    await dialog.getByRole("textbox", { name: "Email" }).fill("ada@example.org");
    await dialog.getByRole("textbox", { name: "Homepage" }).fill("https://example.org/ada");
    await dialog.getByLabel("Birthday").fill("1815-12-10");
    await dialog.getByLabel("Meeting time").fill("2026-11-30T09:30");
    await dialog.getByRole("spinbutton", { name: "Age" }).fill("36");
    await dialog.getByRole("checkbox", { name: "Agree to the terms" }).check();
    await dialog.getByRole("combobox", { name: "Size" }).selectOption("medium");
    await dialog.getByRole("combobox", { name: "Colour" }).selectOption({ label: "Blue" });
    await dialog.getByRole("combobox", { name: /Plan/ }).selectOption({ label: "Pro" });
    const toppings = dialog.getByRole("group", { name: "Toppings" });
    await toppings.getByRole("checkbox", { name: "olives" }).check();
    await expect(toppings.getByRole("checkbox", { name: "basil" })).toBeDisabled();
    const fruit = dialog.getByRole("group", { name: "Fruit" });
    await fruit.getByRole("checkbox", { name: "Plum" }).check();
    await fruit.getByRole("checkbox", { name: "Apple" }).check();
    await expect(dialog.getByText(/Unsupported|Unknown field type/)).toHaveCount(0);
    await dialog.getByRole("button", { name: "Accept" }).click();

    await expect(dialog).toBeHidden();
    const [answer, ...more] = ipc.calls("answerElicitation");
    expect(more).toEqual([]);
    expect(answer?.slice(0, 2)).toEqual([EVERY_SHAPE_ELICITATION.id, "accept"]);
    expect(JSON.parse(answer?.[2] ?? "null")).toStrictEqual({
      name: "Ada Lovelace",
      email: "ada@example.org",
      homepage: "https://example.org/ada",
      birthday: "1815-12-10",
      meeting: "2026-11-30T09:30:00.000Z",
      greeting: "Hello there",
      age: 36,
      ratio: 0.5,
      terms: true,
      signedIn: true,
      size: "medium",
      colour: "#00f",
      plan: "plan-2",
      toppings: ["cheese", "olives"],
      fruit: ["fruit-1", "fruit-3"],
    });
  });

  // Pins: a field the person never touched and that has no default (the titled multi-select with minItems, the
  // boolean, the untitled select) is absent from the answer; the defaults shown in their controls are sent.
  test("an untouched field without a default is not in the answer", async ({ page, ipc, open }) => {
    await open("/servers");
    await ipc.emitWhenHeard("pendingRequestArrived", { request: EVERY_SHAPE_ELICITATION });
    const dialog = page.getByRole("dialog", { name: "files asks for information" });
    await expect(dialog.getByRole("group", { name: "Toppings" }).getByRole("checkbox", { name: "cheese" })).toBeChecked();
    await expect(dialog.getByRole("combobox", { name: "Colour" })).toHaveValue(/.+/);
    await dialog.getByRole("textbox", { name: /Full name/ }).fill("Ada");
    await dialog.getByRole("combobox", { name: /Plan/ }).selectOption({ label: "Free" });
    await dialog.getByRole("button", { name: "Accept" }).click();

    await expect(dialog).toBeHidden();
    const content: unknown = JSON.parse(ipc.calls("answerElicitation")[0]?.[2] ?? "null");
    expect(content).toStrictEqual({ name: "Ada", plan: "plan-1", ...EVERY_SHAPE_DEFAULTS });
  });

  // Pins: Accept with required fields empty names each at its field (under the app's CSP) and sends nothing.
  test("required fields are checked before Accept", async ({ page, ipc, open }) => {
    await open("/servers");
    await ipc.emitWhenHeard("pendingRequestArrived", { request: EVERY_SHAPE_ELICITATION });
    const dialog = page.getByRole("dialog", { name: "files asks for information" });
    await dialog.getByRole("button", { name: "Accept" }).click();

    const name = dialog.locator("div.flex-col", { has: page.getByRole("textbox", { name: /Full name/ }) }).last();
    await expect(name).toContainText("is a required property");
    const plan = dialog.locator("div.flex-col", { has: page.getByRole("combobox", { name: /Plan/ }) }).last();
    await expect(plan).toContainText("is a required property");
    await expect(dialog).toBeVisible();
    expect(ipc.calls("answerElicitation")).toEqual([]);
  });
});

test.describe("a long elicitation form", () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  // Pins: the dialog's body scrolls and Accept/Decline/Cancel stay in view, at the top and at the end of the form.
  test("keeps Accept, Decline and Cancel in view while the fields scroll", async ({ page, ipc, open }) => {
    await open("/servers");
    await ipc.emitWhenHeard("pendingRequestArrived", { request: LONG_ELICITATION });
    const dialog = page.getByRole("dialog", { name: "files asks for information" });
    const buttons = ["Accept", "Decline", "Cancel"].map((name) => dialog.getByRole("button", { name }));
    const last = dialog.getByRole("textbox", { name: "Field 30" });
    await expect(last).not.toBeInViewport();
    for (const button of buttons) await expect(button).toBeInViewport({ ratio: 1 });

    await last.fill("the end");
    await expect(last).toBeInViewport();
    for (const button of buttons) await expect(button).toBeInViewport({ ratio: 1 });
    await expect(dialog.getByText("Fill in the survey.")).not.toBeInViewport();

    await dialog.getByRole("button", { name: "Accept" }).click();
    await expect(dialog).toBeHidden();
    expect(ipc.calls("answerElicitation")).toEqual([[LONG_ELICITATION.id, "accept", JSON.stringify({ field30: "the end" })]]);
  });
});
