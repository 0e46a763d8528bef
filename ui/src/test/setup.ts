// Vitest setup for every test file: jest-dom matchers, a clean DOM between tests, and patient async queries.
import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// Role queries over a whole page take a while on the two shared cores these suites run on; one second (the
// default) made waitFor/findBy time out while the page was already right.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
});
