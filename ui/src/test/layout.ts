// Test helper: gives jsdom (which lays nothing out) plausible sizes, so virtualised lists render their rows.
import { afterAll, beforeAll } from "vitest";

/**
 * For the calling test file: a scroller of `viewport` px and rows of `rowPx` px (the virtualiser reads
 * clientWidth/clientHeight and offsetHeight), restored afterwards.
 */
export function fakeLayoutForFile(rowPx: number, viewport = 600) {
  const saved = {
    clientHeight: Object.getOwnPropertyDescriptor(Element.prototype, "clientHeight"),
    clientWidth: Object.getOwnPropertyDescriptor(Element.prototype, "clientWidth"),
  };
  const offsetHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "offsetHeight");
  beforeAll(() => {
    Object.defineProperty(Element.prototype, "clientHeight", { configurable: true, get: () => viewport });
    Object.defineProperty(Element.prototype, "clientWidth", { configurable: true, get: () => 800 });
    Object.defineProperty(HTMLElement.prototype, "offsetHeight", { configurable: true, get: () => rowPx });
  });
  afterAll(() => {
    for (const [key, descriptor] of Object.entries(saved)) {
      if (descriptor !== undefined) Object.defineProperty(Element.prototype, key, descriptor);
    }
    if (offsetHeight !== undefined) Object.defineProperty(HTMLElement.prototype, "offsetHeight", offsetHeight);
  });
}
