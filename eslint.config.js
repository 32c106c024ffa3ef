// Lint rules only: no formatting rules, the code's layout is left as it is.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'coverage/**', 'bench/.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: globals.node },
    rules: {
      // Unused names are dead code, except deliberately ignored ones (`_name`, `...rest` siblings).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true, caughtErrors: 'none' }],
      // Wire shapes and test answers are `any` on purpose in places; the library's API types are checked by tsc.
      '@typescript-eslint/no-explicit-any': 'off',
      // PHP ports escape and strip control characters on purpose.
      'no-control-regex': 'off',
      // `else if ((m = take(…)))` chains assign in every branch, whether the branch reads the match or not.
      'no-useless-assignment': 'off',
      'prefer-const': ['error', { destructuring: 'all' }],
      'no-prototype-builtins': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // sanitize-html runs through filterHtml, which bounds the nesting its parser is given (text/html-filter.ts).
    files: ['packages/*/src/**/*.ts'],
    ignores: ['packages/core/src/text/html-filter.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'sanitize-html', allowTypeImports: true, message: 'Use filterHtml from text/html-filter.ts: it bounds the nesting depth the parser is given.' }] }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
