// Tests for the theme preference: what is loaded from storage and what is applied to <html>.
import { afterEach, describe, expect, it } from "vitest";
import { applyTheme, chooseTheme, loadTheme } from "./theme";

describe("theme", () => {
  afterEach(() => {
    localStorage.clear();
    delete document.documentElement.dataset.theme;
  });

  // Pins: nothing saved, or garbage saved, means following the system.
  it("defaults to the system theme", () => {
    expect(loadTheme()).toBe("system");
    localStorage.setItem("plugboard.theme", "<script>");
    expect(loadTheme()).toBe("system");
  });

  // Pins: a chosen theme is saved, reloaded and pinned on <html>; "system" unpins it.
  it("saves, reloads and applies a choice", () => {
    chooseTheme("dark");
    expect(loadTheme()).toBe("dark");
    expect(document.documentElement.dataset.theme).toBe("dark");
    applyTheme("system");
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });
});
