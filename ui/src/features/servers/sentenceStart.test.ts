// Tests for sentenceStart: a failure message that starts with a lower-case word is capitalised, names and code are not.
import { describe, expect, it } from "vitest";
import { sentenceStart } from "./sentenceStart";

describe("sentenceStart", () => {
  // Pins: an ordinary first word gets its capital letter; the rest of the message stays exactly as the backend wrote it.
  it("capitalises a message that starts with a word", () => {
    expect(sentenceStart("exited with status 1")).toBe("Exited with status 1");
    expect(sentenceStart("connection refused (os error 111)")).toBe("Connection refused (os error 111)");
    expect(sentenceStart("can't reach https://mcp.example.test")).toBe("Can't reach https://mcp.example.test");
    expect(sentenceStart("timeout")).toBe("Timeout");
  });

  // Pins: a message that already starts with a capital, or with a program, field, path, URL or code, is left alone.
  it("leaves names, paths and code as they are", () => {
    for (const message of [
      "Exited with status 1",
      "npx: command not found",
      "mcpServers.files.url: relative URL without a base",
      "servers.json: expected an object",
      "`command` is missing",
      "/usr/bin/npx: permission denied",
      "http://127.0.0.1:9000/sse answered 404",
      "\u202eexited",
      "",
    ]) {
      expect(sentenceStart(message)).toBe(message);
    }
  });
});
