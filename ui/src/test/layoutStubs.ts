// Test helper: the layout APIs jsdom lacks (sizes, ResizeObserver, scrollIntoView), so virtualised lists, popovers and
// cmdk lists render in tests as they would in a window.
import { afterAll, beforeAll } from "vitest";

/**
 * Gives every element a `viewportPx`-tall, 800 px-wide box and every row `rowPx` of height, and stubs
 * ResizeObserver and scrollIntoView, for the tests of the calling file.
 */
export function stubLayout(viewportPx = 600, rowPx = 40) {
  const saved = {
    clientHeight: Object.getOwnPropertyDescriptor(Element.prototype, "clientHeight"),
    clientWidth: Object.getOwnPropertyDescriptor(Element.prototype, "clientWidth"),
    offsetHeight: Object.getOwnPropertyDescriptor(HTMLElement.prototype, "offsetHeight"),
    scrollIntoView: Object.getOwnPropertyDescriptor(Element.prototype, "scrollIntoView"),
    resizeObserver: globalThis.ResizeObserver,
  };
  beforeAll(() => {
    Object.defineProperty(Element.prototype, "clientHeight", { configurable: true, get: () => viewportPx });
    Object.defineProperty(Element.prototype, "clientWidth", { configurable: true, get: () => 800 });
    Object.defineProperty(HTMLElement.prototype, "offsetHeight", { configurable: true, get: () => rowPx });
    Object.defineProperty(Element.prototype, "scrollIntoView", { configurable: true, writable: true, value: () => {} });
    globalThis.ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  });
  afterAll(() => {
    for (const key of ["clientHeight", "clientWidth", "scrollIntoView"] as const) {
      const descriptor = saved[key];
      if (descriptor !== undefined) Object.defineProperty(Element.prototype, key, descriptor);
      else Reflect.deleteProperty(Element.prototype, key);
    }
    if (saved.offsetHeight !== undefined) Object.defineProperty(HTMLElement.prototype, "offsetHeight", saved.offsetHeight);
    globalThis.ResizeObserver = saved.resizeObserver;
  });
}
