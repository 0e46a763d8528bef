// ESLint flat config: typed TypeScript rules, React hooks and Fast Refresh rules, and a ban on raw-HTML rendering.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import reactHooks from "eslint-plugin-react-hooks";
import reactRefresh from "eslint-plugin-react-refresh";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  // bindings.ts is generated from Rust by tauri-specta; lint its callers, not it.
  globalIgnores(["dist/", "src/ipc/bindings.ts"]),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    files: ["**/*.{ts,tsx}"],
    extends: [reactHooks.configs.flat["recommended-latest"], reactRefresh.configs.vite],
    rules: {
      // Server-supplied text must reach the DOM as text, never as markup.
      "no-restricted-syntax": [
        "error",
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: "Render text, not HTML: server-supplied strings must stay inert.",
        },
        {
          selector: "AssignmentExpression[left.property.name=/^(innerHTML|outerHTML)$/]",
          message: "Render text, not HTML: server-supplied strings must stay inert.",
        },
      ],
      // ajv compiles schemas with `new Function`, which the app's CSP refuses. @rjsf/validator-ajv8 stays installed
      // only because @rjsf/core's entry imports it (getTestRegistry, tree-shaken from the build).
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "@rjsf/validator-ajv8", message: "Use src/forms/schemaValidator: it runs under the CSP." }],
        },
      ],
    },
  },
  {
    files: ["**/*.test.{ts,tsx}", "src/test/**"],
    rules: {
      // vi.mocked(commands.x) passes a method reference on purpose.
      "@typescript-eslint/unbound-method": "off",
      "react-refresh/only-export-components": "off",
    },
  },
  {
    files: ["**/*.js"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
);
