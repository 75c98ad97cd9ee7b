import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.tap/', 'coverage/', 'profiles/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The panel page runs in the viewer's browser (tsconfig.panel.json): it may import only
    // relative modules, which the host serves to it (src/panel/page-modules.ts).
    files: ['src/panel-page/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\.\\.?/)', message: 'The panel page runs in a browser: import only relative, pure modules (no packages, no node:).' }] }]
    }
  },
  {
    // Type-aware: a promise nobody awaits or hands on goes unnoticed, and an unhandled rejection
    // shuts the host down. Every host module, the panel page and the test helpers are checked.
    files: ['src/**/*.ts', 'test/helpers/**/*.ts'],
    ignores: ['src/panel-page/**'],
    languageOptions: { parserOptions: { project: './tsconfig.check.json', tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error', '@typescript-eslint/no-misused-promises': 'error' }
  },
  {
    files: ['src/panel-page/**/*.ts'],
    languageOptions: { parserOptions: { project: './tsconfig.panel.json', tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error', '@typescript-eslint/no-misused-promises': 'error' }
  },
  {
    files: ['test/**/*.ts', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' }
  },
  {
    languageOptions: {
      globals: {
        process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly',
        setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', URL: 'readonly',
        window: 'readonly', document: 'readonly', navigator: 'readonly', WebSocket: 'readonly',
        fetch: 'readonly', performance: 'readonly', requestAnimationFrame: 'readonly',
        location: 'readonly', Blob: 'readonly', createImageBitmap: 'readonly',
        AbortSignal: 'readonly', AbortController: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly'
      }
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }]
    }
  }
)
