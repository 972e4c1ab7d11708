// ESLint runs only the rules that need the TypeScript program (typescript-eslint, type-aware): Biome formats and
// lints everything else (biome.json). Biome's own noFloatingPromises infers types without the compiler and misses
// promises typed in .d.ts files (e.g. node:fs/promises), so these stay here.
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "provider/cdktf/**",
      "provider/cdktn/**",
      "src/generated/**",
      "wire/generated/**",
      "action/dist/**",
      "dist/**",
      "docs/**",
      "coverage/**",
      ".tmp/**",
      "**/.terraform/**",
      "bench/.core-*/**",
      "examples/cdktf/**",
      "examples/cdktn/**",
      "**/*.mjs",
      "**/*.js",
      "**/*.cjs",
    ],
  },
  {
    files: ["**/*.ts"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
    },
  },
);
