// Every screen in screens.ts, opened at 1024×768: axe-core finds no violation in the light theme nor in the dark one
// (each offending node is listed on failure), and neither the window nor the page's scroller scrolls sideways.
import { axeViolations } from "./axe";
import { SCREENS } from "./screens";
import { expect, test } from "./test";

test.use({ viewport: { width: 1024, height: 768 } });

for (const screen of SCREENS) {
  test(`${screen.name}: no axe violations in either theme, no horizontal scrollbar at 1024×768`, async ({
    page,
    ipc,
    open,
  }) => {
    screen.prepare?.(ipc);
    await open(screen.route);
    await screen.reach?.(page, ipc);
    await expect(screen.ready(page)).toBeVisible();

    // The theme follows the system unless Settings pins one; both go through the same light-dark() tokens.
    for (const [colorScheme, canvas] of [
      ["light", "rgb(246, 247, 249)"],
      ["dark", "rgb(23, 25, 29)"],
    ] as const) {
      await page.emulateMedia({ colorScheme });
      await expect(page.locator("body")).toHaveCSS("background-color", canvas);
      expect(await axeViolations(page), `${colorScheme} theme`).toEqual([]);
    }

    const sideways = await page.evaluate(() =>
      [document.documentElement, document.querySelector("main")]
        .filter((element) => element !== null && element.scrollWidth > element.clientWidth)
        .map((element) => element?.tagName),
    );
    expect(sideways, "elements that scroll sideways").toEqual([]);
  });
}
