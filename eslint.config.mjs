// The linter for the phone's script (static/*.js; htmx, vendored, left out): ESLint's
// recommended rules, the pages' modules in a browser, the service worker in its own scope.
// .ci/run runs it: npm ci && npx eslint static
import js from "@eslint/js";
import globals from "globals";

export default [
  {ignores: ["static/vendor/"]},
  js.configs.recommended,
  {
    files: ["static/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      // htmx: the vendored script the pages load before app.js.
      globals: {...globals.browser, htmx: "readonly"},
    },
    rules: {
      // Files share nothing but by import (tests/test_script_layers.py holds the same).
      "no-restricted-syntax": ["error", {
        selector: "AssignmentExpression > MemberExpression.left[object.name=/^(window|globalThis|self)$/]",
        message: "A global shared between files: export it and import it instead.",
      }],
    },
  },
  {
    files: ["static/sw.js"],
    languageOptions: {sourceType: "script", globals: globals.serviceworker},
  },
];
