// Whether the schema checker can run here: ajv compiles each schema to code with `new Function`, which the app's
// content security policy (script-src 'self', no 'unsafe-eval') forbids in the window.

/** True where code generation is allowed (tests, a dev browser); false under the app's CSP. */
export const SCHEMA_CHECKS_AVAILABLE: boolean = (() => {
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- this probe is the whole point.
    const probe = new Function("return true") as () => boolean;
    return probe();
  } catch {
    return false;
  }
})();
